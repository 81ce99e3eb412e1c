"""Every optimizer of ``ms.nn`` (and ``ms.mint.optim``) compiles into a Graph-mode
``ms.nn.TrainOneStepCell`` step (issue 23 §8: they used to run their update eagerly,
silently): float64 weights equal PyNative's after the same steps, and the update rule is
never called eagerly during the compiled steps."""
import numpy as np
import pytest

import sporeling.ms as ms
from sporeling.expression.graph.cell_call import cache_of
from sporeling.expression.graph.tracing import is_tracing
from sporeling.ms import nn, ops
from sporeling.ms.mint import optim as mint_optim

STEPS = 5

OPTIMIZERS = {
    "Adam": lambda ps: nn.Adam(ps, 1e-2, weight_decay=1e-2),
    "Adam-nesterov": lambda ps: nn.Adam(ps, 1e-2, use_nesterov=True),
    "Adam-amsgrad": lambda ps: nn.Adam(ps, 1e-2, use_amsgrad=True),
    "LazyAdam": lambda ps: nn.LazyAdam(ps, 1e-2),
    "AdamWeightDecay": lambda ps: nn.AdamWeightDecay(ps, 1e-2, weight_decay=0.1),
    "AdaMax": lambda ps: nn.AdaMax(ps, 1e-2),
    "Lamb": lambda ps: nn.Lamb(ps, 1e-2, weight_decay=0.01),
    "SGD": lambda ps: nn.SGD(ps, 0.05, momentum=0.9, dampening=0.1),
    "Momentum": lambda ps: nn.Momentum(ps, 0.05, 0.9, use_nesterov=True),
    "Adagrad": lambda ps: nn.Adagrad(ps, learning_rate=0.1),
    "Adadelta": lambda ps: nn.Adadelta(ps, learning_rate=1.0),
    "ASGD": lambda ps: nn.ASGD(ps, 0.05, lambd=0.1, t0=2.0),
    "FTRL": lambda ps: nn.FTRL(ps, learning_rate=0.1, l1=1e-3, l2=1e-3),
    "ProximalAdagrad": lambda ps: nn.ProximalAdagrad(ps, learning_rate=0.1, l1=1e-3, l2=1e-3),
    "RMSProp": lambda ps: nn.RMSProp(ps, 1e-2, momentum=0.5),
    "RMSProp-centered": lambda ps: nn.RMSProp(ps, 1e-2, centered=True),
    "Rprop": lambda ps: nn.Rprop(ps, 0.01),
    "LARS": lambda ps: nn.LARS(nn.Momentum(ps, 0.1, 0.9, weight_decay=1e-2)),
    "LARS-clip": lambda ps: nn.LARS(nn.Momentum(ps, 0.1, 0.9), use_clip=True),
    "mint.SGD-maximize": lambda ps: mint_optim.SGD(ps, 0.05, momentum=0.9, maximize=True),
    "mint.Adam": lambda ps: mint_optim.Adam(ps, 1e-2, weight_decay=1e-2, amsgrad=True),
    "mint.AdamW": lambda ps: mint_optim.AdamW(ps, 1e-2),
    "Adam-schedule": lambda ps: nn.Adam(ps, nn.CosineDecayLR(0.001, 0.05, 3)),
    "FTRL-per-step": lambda ps: nn.FTRL(ps, learning_rate=[0.1, 0.05, 0.02]),
}


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        rng = np.random.default_rng(0)
        self.w1 = ms.Parameter(rng.standard_normal((4, 5)), name="w1")
        self.b1 = ms.Parameter(np.full(5, 0.1), name="b1")
        self.w2 = ms.Parameter(rng.standard_normal((5, 2)), name="w2")

    def construct(self, x):
        return ops.matmul(ops.tanh(ops.matmul(x, self.w1) + self.b1), self.w2)


def _mse(out, y):
    return ((out - y) ** 2).mean()


def _train(mode, make):
    ms.set_context(mode=mode)
    try:
        net = Net()
        opt = make(list(net.trainable_params()))
        inner = getattr(opt, "optimizer", opt)  # LARS wraps one
        calls, rule = [0], inner._update

        def spy(*args):
            calls[0] += not is_tracing()
            return rule(*args)
        inner._update = spy
        step = nn.TrainOneStepCell(nn.WithLossCell(net, _mse), opt)
        rng = np.random.default_rng(1)
        for _ in range(STEPS):
            step(ms.Tensor(rng.standard_normal((3, 4))), ms.Tensor(rng.standard_normal((3, 2))))
        return [p.asnumpy().copy() for p in net.trainable_params()], calls[0], step
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_graph_step_compiles_the_update_and_matches_pynative(name):
    eager, eager_calls, _ = _train(ms.PYNATIVE_MODE, OPTIMIZERS[name])
    compiled, calls, step = _train(ms.GRAPH_MODE, OPTIMIZERS[name])
    for a, b in zip(compiled, eager):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)
    assert not np.allclose(eager[0], Net().w1.asnumpy())  # the steps moved the weights
    assert eager_calls == STEPS * 3 and calls == 0
    cache = cache_of(step)
    assert cache.compile_count == 1
    written = {id(p) for p in cache.last_entry.traced.effect_params}
    assert {id(p) for p in step.optimizer.parameters} <= written
