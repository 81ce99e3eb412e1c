"""Random ops in Graph mode draw anew on every run of the compiled graph (the seed is an
``rng_seed`` equation, not a constant), and after ``set_seed`` the same sequence as PyNative."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.expression import nn, ops


@pytest.fixture(autouse=True)
def pynative():
    sx.set_context(mode=sx.PYNATIVE_MODE)
    yield
    sx.set_context(mode=sx.PYNATIVE_MODE)


X = sx.Tensor(np.ones((20, 30), np.float32))


def masks(fn, n=3, seed=4):
    sx.set_seed(seed)
    return [fn(X).asnumpy().copy() for _ in range(n)]


def test_a_jit_function_draws_a_new_mask_per_call_and_replays_pynative_after_set_seed():
    @sx.jit
    def f(x):
        return ops.dropout(x * 2.0, 0.5) + ops.uniform((20, 30))

    compiled = masks(f)
    assert f.compile_count == 1
    assert not np.array_equal(compiled[0], compiled[1])
    assert not np.array_equal(compiled[1], compiled[2])
    np.testing.assert_array_equal(masks(f)[0], compiled[0])          # set_seed replays
    eager = masks(lambda x: ops.dropout(x * 2.0, 0.5) + ops.uniform((20, 30)))
    for a, b in zip(compiled, eager):
        np.testing.assert_array_equal(a, b)


def test_a_graph_mode_dropout_cell_differs_per_call():
    drop = nn.Dropout(p=0.5).set_train()
    with sx.context(mode=sx.GRAPH_MODE):
        graph = masks(drop)
        assert drop.compile_cache_info()["compile_count"] == 1
    assert not np.array_equal(graph[0], graph[1])
    for a, b in zip(graph, masks(drop)):
        np.testing.assert_array_equal(a, b)


def _train(mode, steps=4):
    sx.set_seed(0)
    net = nn.SequentialCell(nn.Dense(6, 16), nn.ReLU(), nn.Dropout(p=0.4), nn.Dense(16, 3))
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()),
                               nn.SGD(net.trainable_params(), 0.1)).set_train()
    rng = np.random.default_rng(1)
    x = sx.Tensor(rng.standard_normal((8, 6)).astype(np.float32))
    y = sx.Tensor(rng.integers(0, 3, 8).astype(np.int32))
    sx.set_seed(9)
    with sx.context(mode=mode):
        losses = [float(step(x, y).asnumpy()) for _ in range(steps)]
    if mode == sx.GRAPH_MODE:
        assert step.compile_cache_info()["compile_count"] == 1
    return losses, [p.asnumpy().copy() for p in net.get_parameters()]


def test_a_graph_mode_training_step_with_dropout_matches_pynative_step_by_step():
    (l1, p1), (l2, p2) = _train(sx.PYNATIVE_MODE), _train(sx.GRAPH_MODE)
    np.testing.assert_allclose(l2, l1, rtol=1e-5)
    for a, b in zip(p1, p2):
        np.testing.assert_allclose(b, a, rtol=1e-5, atol=1e-6)
