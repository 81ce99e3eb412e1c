"""softmax, normalisation, dropout and embedding against NumPy references."""
import numpy as np
import pytest

from sporeling.compiler import ops
from sporeling.compiler.autodiff import grad, vjp
from sporeling.core import DTypeError, ShapeError, set_seed

rng = np.random.default_rng(0)


def np_softmax(x, axis):
    e = np.exp(x - x.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_softmax_and_log_softmax_match_numpy(axis):
    x = rng.standard_normal((3, 4, 5))
    np.testing.assert_allclose(ops.softmax(x, axis), np_softmax(x, axis), rtol=1e-12)
    np.testing.assert_allclose(ops.log_softmax(x, axis), np.log(np_softmax(x, axis)),
                               rtol=1e-12)


@pytest.mark.parametrize("op", [ops.softmax, ops.log_softmax])
def test_softmax_is_stable_for_huge_logits(op):
    x = np.array([[1e4, -1e4, 0.0], [-1e4, -1e4, -1e4]], np.float32)
    y, back = vjp(lambda v: op(v), x)
    g, = back(np.ones_like(x))
    assert y.dtype == np.float32 and np.isfinite(y).all() and np.isfinite(g).all()
    np.testing.assert_allclose(ops.softmax(x)[1], [1 / 3] * 3, rtol=1e-6)


def test_softmax_rejects_a_bad_axis():
    with pytest.raises(ShapeError, match="axis"):
        ops.softmax(np.ones((2, 3)), axis=2)


def np_normalize(x, axes, eps):
    mean, var = x.mean(axes, keepdims=True), x.var(axes, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)


def test_layer_norm_matches_numpy():
    x, w, b = rng.standard_normal((2, 3, 4)), rng.standard_normal((3, 4)), rng.standard_normal(
        (3, 4))
    np.testing.assert_allclose(ops.layer_norm(x, (3, 4), w, b, eps=1e-3),
                               np_normalize(x, (1, 2), 1e-3) * w + b, rtol=1e-10)
    np.testing.assert_allclose(ops.layer_norm(x, 4), np_normalize(x, -1, 1e-5), rtol=1e-10)
    with pytest.raises(ShapeError, match="trailing"):
        ops.layer_norm(x, (4, 3))


def test_group_norm_matches_numpy():
    x, w, b = rng.standard_normal((2, 6, 3, 2)), rng.standard_normal(6), rng.standard_normal(6)
    want = np_normalize(x.reshape(2, 3, -1), 2, 1e-5).reshape(x.shape)
    np.testing.assert_allclose(ops.group_norm(x, 3, w, b),
                               want * w[:, None, None] + b[:, None, None], rtol=1e-10)
    with pytest.raises(ShapeError, match="divide"):
        ops.group_norm(x, 4)


def test_batch_norm_training_returns_new_running_stats():
    x = rng.standard_normal((8, 3, 2, 2)).astype(np.float32)
    w, b = rng.standard_normal(3).astype(np.float32), rng.standard_normal(3).astype(np.float32)
    rm, rv = np.zeros(3, np.float32), np.ones(3, np.float32)
    y, new_mean, new_var = ops.batch_norm(x, rm, rv, w, b, training=True, momentum=0.1)
    want = np_normalize(x.astype(np.float64), (0, 2, 3), 1e-5) * w[:, None, None] + \
        b[:, None, None]
    np.testing.assert_allclose(y, want, rtol=1e-4, atol=1e-5)
    assert y.dtype == new_mean.dtype == np.float32
    np.testing.assert_allclose(new_mean, 0.1 * x.mean((0, 2, 3)), rtol=1e-5)
    np.testing.assert_allclose(new_var, 0.9 + 0.1 * x.var((0, 2, 3), ddof=1), rtol=1e-5)
    _, none_mean, none_var = ops.batch_norm(x, None, None, training=True)
    assert none_mean is None and none_var is None


def test_batch_norm_inference_uses_running_stats():
    x = rng.standard_normal((4, 3, 5))
    rm, rv = rng.standard_normal(3), rng.uniform(0.5, 2, 3)
    w, b = rng.standard_normal(3), rng.standard_normal(3)
    want = (x - rm[:, None]) / np.sqrt(rv[:, None] + 1e-5) * w[:, None] + b[:, None]
    np.testing.assert_allclose(ops.batch_norm(x, rm, rv, w, b), want, rtol=1e-10)
    with pytest.raises(ShapeError, match="per-channel"):
        ops.batch_norm(x, rm[:2], rv)
    with pytest.raises(ShapeError, match="more than one value"):
        ops.batch_norm(np.ones((1, 3)), None, None, training=True)


def test_dropout_is_seeded_and_scales_the_kept_values():
    x = np.ones((200, 50), np.float32)
    set_seed(5)
    a = ops.dropout(x, 0.3)
    set_seed(5)
    b = ops.dropout(x, 0.3)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, ops.dropout(x, 0.3))     # the stream moves on
    assert set(np.unique(a)) == {0.0, np.float32(1 / 0.7)}
    assert abs((a == 0).mean() - 0.3) < 0.02
    np.testing.assert_array_equal(ops.dropout(x, 0.3, training=False), x)
    np.testing.assert_array_equal(ops.dropout(x, 1.0), np.zeros_like(x))


def test_dropout_backward_uses_the_forward_mask():
    x = rng.standard_normal((30, 20))
    y, back = vjp(lambda v: ops.dropout(v, 0.5, seed=11), x)
    g, = back(np.ones_like(x))
    np.testing.assert_array_equal(g != 0, y != 0)
    np.testing.assert_allclose(g[g != 0], 2.0)


def test_embedding_gathers_and_scatter_adds():
    table = rng.standard_normal((5, 3))
    idx = np.array([[1, 4, 1], [0, 1, 2]])
    np.testing.assert_array_equal(ops.embedding(idx, table), table[idx])
    g = grad(lambda t: ops.sum(ops.embedding(idx, t, padding_idx=-1)))(table)
    np.testing.assert_array_equal(g[:, 0], [1, 3, 1, 0, 0])  # row 4 is padding: nothing
    with pytest.raises(DTypeError, match="integers"):
        ops.embedding(np.array([0.0]), table)
    with pytest.raises(ShapeError, match="padding_idx"):
        ops.embedding(idx, table, padding_idx=5)
