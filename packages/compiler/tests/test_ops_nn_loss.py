"""Losses against NumPy references written from PyTorch's definitions; stability."""
import numpy as np
import pytest

from sporeling.compiler import ops
from sporeling.compiler.autodiff import vjp
from sporeling.core import ShapeError, SporelingError

rng = np.random.default_rng(0)


def np_log_softmax(x, axis=1):
    s = x - x.max(axis, keepdims=True)
    return s - np.log(np.exp(s).sum(axis, keepdims=True))


def np_cross_entropy(x, t, weight=None, ignore=-100, reduction="mean", smoothing=0.0):
    """PyTorch's definition, class targets, (N, C) logits."""
    logp = np_log_softmax(x)
    c = x.shape[1]
    w = np.ones(c) if weight is None else weight
    valid = t != ignore
    safe = np.where(valid, t, 0)
    w_t = w[safe] * valid
    nll = -logp[np.arange(len(t)), safe] * w_t
    smooth = -(logp * w).sum(1) * valid
    if reduction == "mean":
        nll, smooth = nll.sum() / w_t.sum(), smooth.sum() / w_t.sum()
    elif reduction == "sum":
        nll, smooth = nll.sum(), smooth.sum()
    return (1 - smoothing) * nll + smoothing / c * smooth


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("smoothing", [0.0, 0.1])
def test_cross_entropy_with_class_targets(reduction, weighted, smoothing):
    x, t = rng.standard_normal((6, 4)), np.array([0, 3, 1, -100, 2, 3])
    w = rng.uniform(0.5, 2, 4) if weighted else None
    got = ops.cross_entropy(x, t, weight=w, reduction=reduction, label_smoothing=smoothing)
    np.testing.assert_allclose(got, np_cross_entropy(x, t, w, -100, reduction, smoothing),
                               rtol=1e-10)


def test_cross_entropy_ignore_index_inside_the_class_range():
    x, t = rng.standard_normal((4, 3)), np.array([0, 1, 2, 1])
    got = ops.cross_entropy(x, t, ignore_index=1)
    np.testing.assert_allclose(got, np_cross_entropy(x, t, ignore=1), rtol=1e-10)


def test_cross_entropy_with_spatial_axes_and_probabilities():
    x = rng.standard_normal((2, 3, 4))
    t = rng.integers(0, 3, (2, 4))
    flat = x.transpose(0, 2, 1).reshape(-1, 3)
    np.testing.assert_allclose(ops.cross_entropy(x, t), np_cross_entropy(flat, t.ravel()),
                               rtol=1e-10)
    p = rng.dirichlet(np.ones(3), (2, 4)).transpose(0, 2, 1)
    want = -(np_log_softmax(x) * (p * 0.8 + 0.2 / 3)).sum(1).mean()
    np.testing.assert_allclose(ops.cross_entropy(x, p, label_smoothing=0.2), want, rtol=1e-10)


def test_nll_loss_matches_definition():
    logp = np_log_softmax(rng.standard_normal((5, 3)))
    t = np.array([0, 2, 2, 1, 0])
    np.testing.assert_allclose(ops.nll_loss(logp, t, reduction="none"),
                               -logp[np.arange(5), t], rtol=1e-12)


@pytest.mark.parametrize("op", [ops.cross_entropy, ops.binary_cross_entropy_with_logits])
def test_losses_are_stable_for_huge_logits(op):
    x = np.array([[1e4, -1e4], [-1e4, 1e4]], np.float32)
    target = np.array([0, 0]) if op is ops.cross_entropy else np.array([[1.0, 0.0], [1.0, 0.0]],
                                                                       np.float32)
    loss, back = vjp(lambda v: op(v, target), x)
    g, = back(np.float32(1.0))
    assert np.isfinite(loss) and np.isfinite(g).all()
    np.testing.assert_allclose(loss, 1e4 if op is ops.cross_entropy else 5e3, rtol=1e-6)


def test_elementwise_losses_match_definitions():
    x, t = rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    d = x - t
    np.testing.assert_allclose(ops.mse_loss(x, t), (d ** 2).mean(), rtol=1e-12)
    np.testing.assert_allclose(ops.l1_loss(x, t, reduction="sum"), np.abs(d).sum(), rtol=1e-12)
    beta = 0.7
    huber = np.where(np.abs(d) < beta, 0.5 * d ** 2 / beta, np.abs(d) - 0.5 * beta)
    np.testing.assert_allclose(ops.smooth_l1_loss(x, t, "none", beta), huber, rtol=1e-12)
    np.testing.assert_allclose(ops.smooth_l1_loss(x, t, beta=0.0), np.abs(d).mean(),
                               rtol=1e-12)


def test_bce_with_logits_matches_definition():
    x, t = rng.standard_normal((4, 3)), rng.uniform(0, 1, (4, 3))
    pw, w = rng.uniform(0.5, 2, 3), rng.uniform(0.5, 2, (4, 3))
    s = 1 / (1 + np.exp(-x))
    want = -(pw * t * np.log(s) + (1 - t) * np.log(1 - s)) * w
    got = ops.binary_cross_entropy_with_logits(x, t, weight=w, reduction="none", pos_weight=pw)
    np.testing.assert_allclose(got, want, rtol=1e-10)


def test_loss_errors():
    with pytest.raises(SporelingError, match="reduction"):
        ops.mse_loss(np.ones(2), np.ones(2), reduction="avg")
    with pytest.raises(ShapeError, match="target shape"):
        ops.cross_entropy(np.ones((2, 3)), np.array([0, 1, 2]))
    with pytest.raises(ShapeError, match="out of range"):
        ops.cross_entropy(np.ones((2, 3)), np.array([0, 3]))
