"""The interpreter stack is per thread: a Graph-mode trace in one thread (its Parameters
lifted to tracers, its Tensor ops dispatched through ``bind``) leaves another thread's eager
training exactly as it would be alone."""
import threading

import numpy as np

import sporeling.expression as sx
from sporeling.compiler.core.stack import layers
from sporeling.expression import nn
from sporeling.expression.optim import Momentum


def _model(seed: int):
    sx.set_seed(seed)
    net = nn.SequentialCell(nn.Dense(4, 8), nn.Tanh(), nn.Dense(8, 3))
    loss = nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True,
                                                                 reduction="mean"))
    return net, nn.TrainOneStepCell(loss, Momentum(net.trainable_params(), 0.1, 0.9))


def _eager_training(net, step, seed: int, steps: int = 6):
    """A small eager training run: its losses and final weights."""
    rng = np.random.default_rng(seed)
    losses = []
    for _ in range(steps):
        x = sx.Tensor(rng.standard_normal((5, 4)).astype(np.float32))
        y = sx.Tensor(rng.integers(0, 3, 5).astype(np.int32))
        losses.append(float(step(x, y).asnumpy()))
    return losses, [p.asnumpy().copy() for p in net.trainable_params()]


def test_eager_training_runs_unchanged_while_another_thread_is_mid_trace():
    alone_losses, alone_weights = _eager_training(*_model(1), seed=1)
    net, step = _model(1)  # alive before the trace starts: the trace lifts its Parameters too

    traced_net = nn.Dense(4, 2)  # its (and every live) Parameter is lifted by the trace
    in_trace, eager_done = threading.Event(), threading.Event()
    seen: dict = {}

    @sx.jit
    def traced(x):
        seen["layers in trace"] = len(layers())
        in_trace.set()
        # the other thread trains now, while this trace is open
        assert eager_done.wait(60), "the eager thread did not finish"
        return traced_net(x).sum()

    def tracer_thread():
        seen["traced value"] = float(traced(sx.Tensor(np.ones((3, 4), np.float32))).asnumpy())

    def eager_thread():
        assert in_trace.wait(60)
        try:
            seen["layers in eager thread"] = len(layers())
            seen["result"] = _eager_training(net, step, seed=1)
        finally:
            eager_done.set()

    threads = [threading.Thread(target=tracer_thread), threading.Thread(target=eager_thread)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert seen["layers in trace"] >= 2           # the trace and its lifted Parameters
    assert seen["layers in eager thread"] == 0    # none of them leak into the other thread
    losses, weights = seen["result"]
    assert losses == alone_losses
    for w, a in zip(weights, alone_weights):
        np.testing.assert_array_equal(w, a)
    expected = traced_net(sx.Tensor(np.ones((3, 4), np.float32))).sum()
    np.testing.assert_allclose(seen["traced value"], float(expected.asnumpy()), rtol=1e-6)


def test_no_layer_outlives_a_trace_that_raised():
    @sx.jit
    def broken(x):
        raise ValueError("boom")

    try:
        broken(sx.Tensor(np.ones(2, np.float32)))
    except ValueError:
        pass
    assert layers() == []
