"""Expression's extension points for data parallelism: the ``sporeling_grad_reducer`` hook
(``HOOKSPECS`` of expression's plugin) that gives ``TrainOneStepCell`` its reducer, and
``on_gradient_ready``, which reports each Parameter's gradient while backward still runs."""
import types

import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.core import GRAPH_MODE, PYNATIVE_MODE, context, get_plugin_host, impl
from sporeling.expression import nn, ops, plugin
from sporeling.expression.autograd import on_gradient_ready
from sporeling.expression.optim import SGD
from sporeling.expression.train import TrainOneStepCell, WithLossCell


def _chain():
    ws = [sx.Parameter(np.full((3, 3), 0.1 * (i + 1)), name=f"w{i}") for i in range(3)]

    def loss(x):
        for w in ws:
            x = ops.tanh(ops.matmul(x, w))
        return x.sum()
    return ws, loss


def test_gradients_are_reported_final_last_layer_first_while_backward_runs():
    ws, loss = _chain()
    seen = []
    with on_gradient_ready(lambda p, g: seen.append((p.name, g.copy()))):
        grads = sx.grad(loss, None, ws)(np.ones((2, 3)))
    assert [name for name, _ in seen] == ["w2", "w1", "w0"]
    for (name, g), want in zip(seen, reversed(grads)):  # the final values, not partial ones
        np.testing.assert_array_equal(g, want.asnumpy())
    # outside the block, and for Parameters grad does not differentiate: nothing
    sx.grad(loss, None, ws)(np.ones((2, 3)))
    with on_gradient_ready(lambda p, g: seen.append(p.name)):
        sx.grad(loss, 0)(np.ones((2, 3)))
    assert len(seen) == 3


def test_a_report_comes_before_backward_reaches_earlier_layers():
    ws, _ = _chain()
    order = []

    @sx.custom_bprop(lambda h, out, dout: (order.append("backward at layer 0") or dout,))
    def mark(h):
        return h * 1.0

    def loss(x):  # the mark sits between layer 0 and layer 1
        h = mark(ops.tanh(ops.matmul(x, ws[0])))
        return ops.tanh(ops.matmul(ops.tanh(ops.matmul(h, ws[1])), ws[2])).sum()
    with on_gradient_ready(lambda p, g: order.append(p.name)):
        sx.grad(loss, None, ws)(np.ones((2, 3)))
    # w2 and w1 were reported while backward still had layer 0 to do
    assert order == ["w2", "w1", "backward at layer 0", "w0"]


def test_expression_owns_the_grad_reducer_hook():
    assert hasattr(plugin.HOOKSPECS, "sporeling_grad_reducer")
    assert "sporeling_grad_reducer" in get_plugin_host().hookspecs()


class _Doubler:
    """A reducer as a plugin would give: doubles gradients, records what it heard."""

    def __init__(self):
        self.ready, self.calls = [], 0

    def gradient_ready(self, p, g):
        self.ready.append(p.name)

    def __call__(self, grads):
        self.calls += 1
        return tuple(g * 2.0 for g in grads)


@pytest.fixture
def doubling_plugin():
    made = []

    @impl
    def sporeling_grad_reducer(train_cell):
        made.append(_Doubler())
        return made[-1]
    module = types.ModuleType("doubling_plugin")
    module.sporeling_grad_reducer = sporeling_grad_reducer
    host = get_plugin_host()
    host.pm.register(module, name="doubling_plugin")
    try:
        yield made
    finally:
        host.pm.unregister(name="doubling_plugin")


def _weights_after_step(mode):
    net = nn.Dense(3, 1, weight_init="ones", bias_init="zeros")
    step = TrainOneStepCell(WithLossCell(net, lambda o, y: ops.mean((o - y) ** 2)),
                            SGD(net.trainable_params(), 0.1))
    with context(mode=mode):
        step(np.ones((4, 3), np.float32), np.zeros((4, 1), np.float32))
    return step, net.weight.asnumpy().copy()


@pytest.mark.parametrize("mode", [PYNATIVE_MODE, GRAPH_MODE], ids=["pynative", "graph"])
def test_train_one_step_cell_uses_the_plugins_reducer(doubling_plugin, mode):
    step, doubled = _weights_after_step(mode)
    reducer = doubling_plugin[-1]
    assert step.grad_reducer is reducer and reducer.calls == 1
    # both modes report each final gradient during backward (Graph mode while tracing it)
    assert reducer.ready == ["bias", "weight"]
    get_plugin_host().pm.unregister(name="doubling_plugin")
    try:
        _, plain = _weights_after_step(mode)
    finally:
        get_plugin_host().pm.register(types.ModuleType("placeholder"), name="doubling_plugin")
    np.testing.assert_allclose(1.0 - doubled, 2 * (1.0 - plain), rtol=1e-6)


def test_a_subclass_calling_value_and_grad_itself_is_still_compiled_in_graph_mode():
    from sporeling.expression.graph.cell_call import cache_of

    class OwnStep(TrainOneStepCell):  # as ms.nn.TrainOneStepCell is written
        def construct(self, *inputs):
            loss, grads = self._value_and_grad(*inputs)
            self.optimizer(self.grad_reducer(grads))
            return loss
    net = nn.Dense(3, 1, weight_init="ones", bias_init="zeros")
    step = OwnStep(WithLossCell(net, lambda o, y: ops.mean((o - y) ** 2)),
                   SGD(net.trainable_params(), 0.1))
    with context(mode=GRAPH_MODE):
        losses = [float(step(np.ones((4, 3), np.float32), np.zeros((4, 1), np.float32)))
                  for _ in range(3)]
    assert cache_of(step).compile_count == 1 and losses[2] < losses[0]
    assert "_value_and_grad" in vars(step) and "_loss_and_grads" not in vars(step)
