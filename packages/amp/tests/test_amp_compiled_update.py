"""Graph mode compiles the optimizer's update under AMP too (issue 23 §8: at amp_level O2/O3
and with a loss scaler it used to run eagerly, silently): in float32 on the master weights
at O2/O3, and skipped inside the graph when the scaled gradients overflow."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.amp import DynamicLossScaler, build_train_network
from sporeling.expression import nn
from sporeling.expression.graph.cell_call import cache_of
from sporeling.expression.graph.tracing import is_tracing
from sporeling.expression.optim import SGD


def count_eager_updates(opt):
    calls, rule = [0], opt._update

    def spy(*args):
        calls[0] += not is_tracing()
        return rule(*args)
    opt._update = spy
    return calls


class Dot(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = sx.Parameter(np.ones(8, np.float32), name="w")

    def construct(self, x):
        return (self.w * x).sum()


@pytest.mark.parametrize("level", ["O2", "O3"])
def test_the_update_compiles_in_float32_at_o2_and_o3(level):
    """A step of 1e-5 from 1.0 is lost in float16 (its spacing there is 1e-3)."""
    net = Dot()
    opt = SGD(net.trainable_params(), learning_rate=1e-5)
    calls = count_eager_updates(opt)
    step = nn.TrainOneStepCell(net, opt)
    sx.set_context(mode=sx.GRAPH_MODE, amp_level=level)
    try:
        step(np.ones(8, np.float32))
    finally:
        sx.set_context(mode=sx.PYNATIVE_MODE, amp_level="O0")
    np.testing.assert_array_equal(net.w.asnumpy(), np.float32(1) - np.float32(1e-5))
    assert calls[0] == 0
    graph = cache_of(step).last_executable.graph
    assert sorted(str(eq.outputs[0].aval.dtype) for eq in graph.equations
                  if eq.prim.name == "assign") == ["float32", "int64"]  # w, step counter


def _loss_scaled(mode, steps=8):
    sx.set_seed(0)
    net = nn.Dense(3, 2)
    opt = SGD(net.trainable_params(), 0.1, momentum=0.9)
    calls = count_eager_updates(opt)
    # 2**15: the first steps' scaled float16 values overflow, then the halved scale fits
    step = build_train_network(net, opt, nn.MSELoss(), level="O2",
                               loss_scaler=DynamicLossScaler(2.0 ** 15, 2.0, 2))
    rng = np.random.default_rng(0)
    x = sx.Tensor(rng.standard_normal((4, 3)).astype(np.float32) * 4)
    y = sx.Tensor(rng.standard_normal((4, 2)).astype(np.float32))
    sx.set_context(mode=mode)
    try:
        flags = [bool(step(x, y)[1].asnumpy()) for _ in range(steps)]
    finally:
        sx.set_context(mode=sx.PYNATIVE_MODE)
    return [p.asnumpy().copy() for p in net.trainable_params()], flags, calls[0], step


def test_loss_scaled_step_compiles_the_update_and_its_skip():
    eager, eager_flags, _, _ = _loss_scaled(sx.PYNATIVE_MODE)
    compiled, flags, calls, step = _loss_scaled(sx.GRAPH_MODE)
    assert flags == eager_flags and flags[0] and not flags[-1]  # skipped, then applied
    assert step.overflow_steps == sum(flags) and step.optimizer.global_step == flags.count(False)
    for a, b in zip(compiled, eager):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    assert calls == 0  # the update ran inside the compiled graph only
    names = [eq.prim.name for eq in cache_of(step).last_graph.equations]
    # w, b, their momentum buffers, the step counter: each assigned, after a select
    assert names.count("assign") == 2 * 2 + 1 and names.count("where") >= 2 * 2 + 1
