"""Gradients through sharded programs equal one device's (training equivalence)."""
import numpy as np
import pytest

from sporeling.compiler import ops
from sporeling.compiler.autodiff import vjp
from sporeling.expression import Tensor, nn
from sporeling.parallel.operator import shard
from sporeling.parallel.testing import run_local

from _parallel_models import block, block_args, mlp


def _reference(f, *args):
    out, back = vjp(f, *args)
    return out, back(np.ones((), np.asarray(out).dtype))


def _check(f, args, n, in_strategy=None, tol=1e-10):
    loss, ref = _reference(f, *args)
    sharded = shard(f, in_strategy=in_strategy)
    for outs, grads, params in run_local(n, lambda: sharded.value_and_grad(*args)):
        assert params == {} and np.shape(outs[0]) == np.shape(loss)
        np.testing.assert_allclose(outs[0], loss, rtol=tol, atol=tol)
        for g, r in zip(grads, ref):
            np.testing.assert_allclose(g, r, rtol=tol, atol=tol)


@pytest.mark.parametrize("n", [2, 4])
def test_megatron_mlp_gradients(n):
    rng = np.random.default_rng(0)
    args = [rng.standard_normal(s) for s in ((8, 16), (16, 32), (32, 16))]
    f = lambda x, w1, w2: ops.mean(ops.square(
        mlp(x, w1, w2, col=((1, 1), (1, n)), row=((1, n), (n, 1)))))
    _check(f, args, n)


@pytest.mark.parametrize("n", [2, 4])
def test_data_parallel_mlp_gradients_sum_over_replicas(n):
    rng = np.random.default_rng(1)
    args = [rng.standard_normal(s) for s in ((8, 6), (6, 5), (5, 3))]
    f = lambda x, w1, w2: ops.sum(ops.tanh(mlp(x, w1, w2)))
    _check(f, args, n, in_strategy=((n, 1), None, None))


@pytest.mark.parametrize("n", [2, 4])
def test_transformer_block_gradients(n):
    args = block_args(np.random.default_rng(2))
    f = lambda *a: ops.mean(block(*a, heads=4, annotate=n))
    _check(f, args, n)


def test_cell_parameters_get_one_device_gradients():
    net = nn.SequentialCell(nn.Dense(8, 32), nn.ReLU(), nn.Dense(32, 4))
    x = np.random.default_rng(3).standard_normal((6, 8)).astype(np.float32)
    names = [name for name, _ in net.parameters_and_names()]
    weights = [p.asnumpy() for _, p in net.parameters_and_names()]

    def ref_loss(x, w1, b1, w2, b2):
        h = ops.relu(ops.add(ops.matmul(x, ops.transpose(w1, (1, 0))), b1))
        return ops.mean(ops.add(ops.matmul(h, ops.transpose(w2, (1, 0))), b2))
    _, ref = _reference(ref_loss, x, *weights)
    sharded = shard(lambda x: net(x).mean(), in_strategy=((2, 1),))
    for outs, (gx,), params in run_local(2, lambda: sharded.value_and_grad(Tensor(x))):
        np.testing.assert_allclose(gx, ref[0], rtol=1e-5, atol=1e-6)
        assert sorted(params) == sorted(names)
        for name, r in zip(names, ref[1:]):
            np.testing.assert_allclose(params[name], r, rtol=1e-5, atol=1e-6)


def test_embedding_row_split_gradient_and_sgd_steps_match_one_device():
    rng = np.random.default_rng(4)
    idx = rng.integers(0, 16, size=(4, 3))
    table, w = rng.standard_normal((16, 8)), rng.standard_normal((8, 4))

    def loss(table, w):
        with strategy_rows():
            e = ops.embedding(idx, table)
        return ops.mean(ops.square(ops.matmul(e, w)))
    sharded = shard(loss)
    ref_t, ref_w = table.copy(), w.copy()
    for _ in range(5):  # SGD on one device vs on 4 ranks (each rank updates whole copies)
        _, (gt, gw) = _reference(loss, ref_t, ref_w)
        ref_t, ref_w = ref_t - 0.1 * gt, ref_w - 0.1 * gw

    def train():
        t, ww = table.copy(), w.copy()
        for _ in range(5):
            _, (gt, gw), _ = sharded.value_and_grad(t, ww)
            t, ww = t - 0.1 * gt, ww - 0.1 * gw
        return t, ww
    for t, ww in run_local(4, train):
        np.testing.assert_allclose(t, ref_t, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(ww, ref_w, rtol=1e-10, atol=1e-12)


def strategy_rows():
    from sporeling.parallel.operator import strategy
    return strategy(((1, 1), (4, 1)))


def test_conv_split_on_batch_and_output_channels_gradients():
    from sporeling.parallel.operator import strategy
    rng = np.random.default_rng(5)
    args = [rng.standard_normal((4, 3, 6, 6)), rng.standard_normal((8, 3, 3, 3))]

    def f(x, w):
        with strategy(((2, 1, 1, 1), (2, 1, 1, 1))):
            y = ops.conv2d(x, w, padding=1)
        return ops.mean(ops.square(ops.relu(y)))
    _check(f, args, 4)


def test_concat_slice_pad_cumsum_split_one_hot_and_cross_entropy_sum():
    from sporeling.parallel.operator import strategy
    rng = np.random.default_rng(9)
    args = [rng.standard_normal((8, 3)), rng.standard_normal((8, 3))]
    labels = rng.integers(0, 6, size=8)

    def f(x, y):
        with strategy(((4, 1), (4, 1))):
            a = ops.concat([x, y], axis=1)
        s = ops.pad(ops.slice(a, (0, 1), (-1, 4)), ((0, 0), (1, 1)))
        first, second = ops.split(ops.cumsum(s, axis=1), 2, axis=1)
        logits = ops.add(ops.concat([first, second], axis=1), ops.one_hot(labels, 6))
        return ops.cross_entropy(logits, labels, reduction="sum")
    _check(f, args, 4)
    table = shard(f).table(*args, device_num=4)
    assert all(row["strategy"][0][0] == 4 for row in table
               if row["op"] in ("slice", "pad", "cumsum", "split", "softmax_cross_entropy"))
