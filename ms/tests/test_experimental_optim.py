"""``ms.experimental.optim``: parameter groups with live learning-rate Parameters, the
schedulers against their closed forms, chaining, compiled steps and bad input. (MindSpore
2.10's outputs for its optimizer tutorial: ``tutorials/test_optimizer.py``.)"""
import math

import numpy as np
import pytest

import sporeling.ms as ms
from sporeling.core import SporelingError
from sporeling.ms import nn
from sporeling.ms.experimental import optim
from sporeling.ms.experimental.optim import lr_scheduler as sched

BASE = 0.2
EPOCHS = 12


def _optimizer(lr=BASE, **kw):
    return optim.Adam(nn.Dense(3, 2).trainable_params(), lr=lr, **kw)


def _lrs(scheduler):
    rates = [float(scheduler.get_last_lr()[0].asnumpy())]
    for _ in range(EPOCHS):
        scheduler.step()
        rates.append(float(scheduler.get_last_lr()[0].asnumpy()))
    return rates


_CLOSED_FORMS = {
    "StepLR": (lambda o: sched.StepLR(o, step_size=3, gamma=0.5),
               lambda e: BASE * 0.5 ** (e // 3)),
    "MultiStepLR": (lambda o: sched.MultiStepLR(o, milestones=[2, 5, 5], gamma=0.1),
                    lambda e: BASE * 0.1 ** ((e >= 2) + 2 * (e >= 5))),
    "ExponentialLR": (lambda o: sched.ExponentialLR(o, gamma=0.9), lambda e: BASE * 0.9 ** e),
    "ConstantLR": (lambda o: sched.ConstantLR(o, factor=0.5, total_iters=3),
                   lambda e: BASE * (0.5 if e < 3 else 1.0)),
    "LinearLR": (lambda o: sched.LinearLR(o, start_factor=0.25, end_factor=1.0, total_iters=4),
                 lambda e: BASE * (0.25 + 0.75 * min(e, 4) / 4)),
    "PolynomialLR": (lambda o: sched.PolynomialLR(o, total_iters=4, power=2.0),
                     lambda e: BASE * (1 - min(e, 4) / 4) ** 2),
    "CosineAnnealingLR": (lambda o: sched.CosineAnnealingLR(o, T_max=5, eta_min=0.01),
                          lambda e: 0.01 + (BASE - 0.01) * (1 + math.cos(math.pi * e / 5)) / 2),
    "LambdaLR": (lambda o: sched.LambdaLR(o, lr_lambda=lambda e: 1 / (1 + e)),
                 lambda e: BASE / (1 + e)),
    "MultiplicativeLR": (lambda o: sched.MultiplicativeLR(o, lr_lambda=lambda e: 0.8),
                         lambda e: BASE * 0.8 ** e),
}


@pytest.mark.parametrize("name", sorted(_CLOSED_FORMS))
def test_each_scheduler_follows_its_closed_form(name):
    make, closed = _CLOSED_FORMS[name]
    optimizer = _optimizer()
    got = _lrs(make(optimizer))
    np.testing.assert_allclose(got, [closed(e) for e in range(EPOCHS + 1)], rtol=1e-5)
    assert optimizer.param_groups[0]["initial_lr"] == pytest.approx(BASE)
    assert float(optimizer.param_groups[0]["lr"].asnumpy()) == pytest.approx(got[-1], 1e-6)


def test_two_schedulers_on_one_optimizer_compose():
    optimizer = _optimizer()
    first, second = sched.ExponentialLR(optimizer, 0.9), sched.StepLR(optimizer, 2, 0.5)
    rates = []
    for _ in range(6):
        first.step()
        second.step()
        rates.append(float(second.get_last_lr()[0].asnumpy()))
    np.testing.assert_allclose(rates, [BASE * 0.9 ** e * 0.5 ** (e // 2) for e in range(1, 7)],
                               rtol=1e-5)


def _adam_groups(net):
    groups = [{"params": [net.weight], "lr": 0.3, "betas": (0.8, 0.9)},
              {"params": [net.bias], "weight_decay": 0.1, "amsgrad": True}]
    optimizer = optim.Adam(groups, lr=0.05)
    return optimizer, sched.StepLR(optimizer, step_size=2, gamma=0.1)


def _train(mode, steps=4, make=_adam_groups):
    """Losses and the final weight and bias of a Dense(4, 3) trained ``steps`` steps in
    ``mode`` by ``make(net) -> (optimizer, scheduler)``."""
    ms.set_context(mode=mode)
    ms.set_seed(0)
    net = nn.Dense(4, 3)
    optimizer, scheduler = make(net)
    grad_fn = ms.value_and_grad(lambda x: (net(x) ** 2).mean(), None, optimizer.parameters)

    def step(x):
        loss, grads = grad_fn(x)
        optimizer(grads)
        return loss
    if mode == ms.GRAPH_MODE:
        step = ms.jit(step)
    x = ms.Tensor(np.linspace(-1, 1, 8, dtype=np.float32).reshape(2, 4))
    losses = []
    for _ in range(steps):
        losses.append(float(step(x).asnumpy()))
        scheduler.step()                     # the next step reads the new rate
    return losses, net.weight.asnumpy(), net.bias.asnumpy()


def test_a_compiled_step_reads_each_groups_rate_as_the_scheduler_sets_it():
    eager, graph = _train(ms.PYNATIVE_MODE), _train(ms.GRAPH_MODE)
    for a, b in zip(eager, graph):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)
    ms.set_context(mode=ms.PYNATIVE_MODE)


def test_maximize_steps_along_the_gradient():
    net = nn.Dense(2, 1, has_bias=False)
    optimizer = optim.SGD(net.trainable_params(), lr=0.1, maximize=True)
    before = net.weight.asnumpy().copy()
    _, grads = ms.value_and_grad(lambda x: net(x).sum(), None, optimizer.parameters)(
        ms.Tensor(np.ones((1, 2), np.float32)))
    optimizer(grads)
    np.testing.assert_allclose(net.weight.asnumpy(), before + 0.1, rtol=1e-6)


def test_bad_groups_and_schedulers_are_refused():
    net = nn.Dense(2, 2)
    with pytest.raises(SporelingError, match="more than one group"):
        optim.Adam([{"params": [net.weight]}, {"params": [net.weight, net.bias]}])
    with pytest.raises(SporelingError, match="unknown keys"):
        optim.Adam([{"params": [net.weight], "momentum": 0.9}])
    with pytest.raises(SporelingError, match="empty parameter list"):
        optim.AdamW([])
    with pytest.raises(SporelingError, match="experimental optimizer"):
        sched.StepLR(nn.Adam(net.trainable_params()), 2)
    with pytest.raises(KeyError, match="initial_lr"):
        sched.StepLR(_optimizer(), 2, last_epoch=3)
    with pytest.raises(ValueError, match="one per parameter group"):
        sched.LambdaLR(_optimizer(), [lambda e: 1.0, lambda e: 2.0])
    with pytest.raises(SporelingError, match="one gradient per parameter"):
        _optimizer()((ms.Tensor(np.ones(2, np.float32)),))
