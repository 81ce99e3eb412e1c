"""``TrainOneStepCell`` in Graph mode: its whole step (forward, backward, scaling, clipping,
the optimiser's update) is one compiled graph."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.expression import nn
from sporeling.expression.graph.cell_call import cache_of
from sporeling.expression.optim import SGD, Adam, AdamW, Momentum, RMSProp

MAKERS = {
    "SGD": lambda ps: SGD(ps, learning_rate=0.05, momentum=0.5, dampening=0.1),
    "Momentum": lambda ps: Momentum(ps, learning_rate=0.05, momentum=0.9, weight_decay=1e-3),
    "Adam": lambda ps: Adam(ps, learning_rate=1e-2),
    "AdamW": lambda ps: AdamW(ps, learning_rate=1e-2),
}


def _train(mode, make, steps=20, **kwargs):
    sx.set_context(mode=mode)
    try:
        sx.set_seed(0)
        net = nn.SequentialCell(nn.Dense(5, 8), nn.ReLU(), nn.Dense(8, 2))
        loss = nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True,
                                                                     reduction="mean"))
        opt = make(net.trainable_params())
        step = nn.TrainOneStepCell(loss, opt, **kwargs)
        rng = np.random.default_rng(3)
        losses = []
        for _ in range(steps):
            x = sx.Tensor(rng.standard_normal((6, 5)).astype(np.float32))
            y = sx.Tensor(rng.integers(0, 2, 6).astype(np.int32))
            losses.append(float(step(x, y).asnumpy()))
        return losses, [p.asnumpy().copy() for p in net.trainable_params()], step
    finally:
        sx.set_context(mode=sx.PYNATIVE_MODE)


@pytest.mark.parametrize("kwargs", [{}, {"sens": 4.0, "max_grad_norm": 0.3}],
                         ids=["plain", "sens-and-clipping"])
@pytest.mark.parametrize("name", sorted(MAKERS))
def test_whole_step_graph_matches_pynative(name, kwargs):
    eager_losses, eager_weights, _ = _train(sx.PYNATIVE_MODE, MAKERS[name], **kwargs)
    losses, weights, step = _train(sx.GRAPH_MODE, MAKERS[name], **kwargs)
    np.testing.assert_allclose(losses, eager_losses, rtol=1e-6, atol=1e-7)
    for w, e in zip(weights, eager_weights):
        np.testing.assert_allclose(w, e, rtol=1e-6, atol=1e-7)
    cache = cache_of(step)
    assert cache.compile_count == 1
    names = [eq.prim.name for eq in cache.last_graph.equations]
    assert "assign" in names and "matmul" in names  # update and backward: one graph
    assert step.optimizer.global_step == 20


def test_rmsprop_compiles_into_the_step_too():
    """RMSProp used to fall back to an eager update silently; its update is in the graph."""
    make = lambda ps: RMSProp(ps, learning_rate=1e-2)  # noqa: E731
    eager_losses, eager_weights, _ = _train(sx.PYNATIVE_MODE, make, steps=5)
    losses, weights, step = _train(sx.GRAPH_MODE, make, steps=5)
    np.testing.assert_allclose(losses, eager_losses, rtol=1e-6)
    for w, e in zip(weights, eager_weights):
        np.testing.assert_allclose(w, e, rtol=1e-6, atol=1e-7)
    names = [eq.prim.name for eq in cache_of(step).last_graph.equations]
    assert names.count("assign") == 4 * 2 + 1  # 4 weights, their v, the step counter
