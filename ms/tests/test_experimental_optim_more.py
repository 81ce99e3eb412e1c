"""``ms.experimental.optim``'s Adadelta, Adagrad, Adamax, ASGD, NAdam, RAdam, RMSprop and
Rprop against NumPy recurrences of PyTorch's algorithms (which 2.10's follow), a compiled
step against the eager one, and SequentialLR, ChainedScheduler, CyclicLR,
CosineAnnealingWarmRestarts and ReduceLROnPlateau against their closed forms; bad input.
(``test_experimental_optim_torch.py`` compares the same with torch.optim when installed.)"""
import math

import numpy as np
import pytest

import sporeling.ms as ms
from sporeling.core import SporelingError
from sporeling.ms import nn
from sporeling.ms.experimental import optim
from sporeling.ms.experimental.optim import lr_scheduler as sched
from test_experimental_optim import _train as train_with  # the compiled-vs-eager run

RNG = np.random.default_rng(7)
W0 = RNG.standard_normal((3, 4)).astype(np.float32)
GRADS = [RNG.standard_normal((3, 4)).astype(np.float32) for _ in range(8)]


# ---- PyTorch's algorithms, in float64: ref(w, grads, **the optimizer's arguments) ---------

def _g(g, w, weight_decay=0.0, maximize=False):
    return (-g if maximize else g) + weight_decay * w


def _adadelta(w, grads, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0.0, maximize=False):
    v = u = 0.0
    for g in grads:
        g = _g(g, w, weight_decay, maximize)
        v = rho * v + (1 - rho) * g * g
        d = np.sqrt(u + eps) / np.sqrt(v + eps) * g
        u = rho * u + (1 - rho) * d * d
        w = w - lr * d
    return w


def _adagrad(w, grads, lr=1e-2, lr_decay=0.0, weight_decay=0.0, initial_accumulator_value=0.0,
             eps=1e-10, maximize=False):
    s = initial_accumulator_value
    for t, g in enumerate(grads, 1):
        g = _g(g, w, weight_decay, maximize)
        s = s + g * g
        w = w - lr / (1 + (t - 1) * lr_decay) * g / (np.sqrt(s) + eps)
    return w


def _adamax(w, grads, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
            maximize=False):
    (b1, b2), m, u = betas, 0.0, 0.0
    for t, g in enumerate(grads, 1):
        g = _g(g, w, weight_decay, maximize)
        m = b1 * m + (1 - b1) * g
        u = np.maximum(b2 * u, np.abs(g) + eps)
        w = w - lr / (1 - b1 ** t) * m / u
    return w


def _asgd(w, grads, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0.0,
          maximize=False):
    eta, mu, ax = lr, 1.0, np.zeros_like(w)
    for t, g in enumerate(grads, 1):
        g = _g(g, w, weight_decay, maximize)
        w = w * (1 - lambd * eta) - eta * g
        ax = w if mu == 1 else ax + (w - ax) * mu
        eta, mu = lr / (1 + lambd * lr * t) ** alpha, 1 / max(1, t - t0)
    return w


def _nadam(w, grads, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
           momentum_decay=4e-3):
    (b1, b2), m, v, product = betas, 0.0, 0.0, 1.0
    for t, g in enumerate(grads, 1):
        g = _g(g, w, weight_decay)
        mu = b1 * (1 - 0.5 * 0.96 ** (t * momentum_decay))
        mu_next = b1 * (1 - 0.5 * 0.96 ** ((t + 1) * momentum_decay))
        product *= mu
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        d = np.sqrt(v / (1 - b2 ** t)) + eps
        w = w - lr * (1 - mu) / (1 - product) * g / d \
            - lr * mu_next / (1 - product * mu_next) * m / d
    return w


def _radam(w, grads, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0):
    (b1, b2), m, v = betas, 0.0, 0.0
    rho_inf = 2 / (1 - b2) - 1
    for t, g in enumerate(grads, 1):
        g = _g(g, w, weight_decay)
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        m_hat = m / (1 - b1 ** t)
        rho = rho_inf - 2 * t * b2 ** t / (1 - b2 ** t)
        if rho > 5:
            r = math.sqrt((rho - 4) * (rho - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho))
            w = w - lr * m_hat * r * math.sqrt(1 - b2 ** t) / (np.sqrt(v) + eps)
        else:
            w = w - lr * m_hat
    return w


def _rmsprop(w, grads, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0.0, momentum=0.0,
             centered=False, maximize=False):
    v = a = b = 0.0
    for g in grads:
        g = _g(g, w, weight_decay, maximize)
        v = alpha * v + (1 - alpha) * g * g
        a = alpha * a + (1 - alpha) * g
        d = np.sqrt(v - a * a if centered else v) + eps
        if momentum:
            b = momentum * b + g / d
            w = w - lr * b
        else:
            w = w - lr * g / d
    return w


def _rprop(w, grads, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), maximize=False):
    prev, size = np.zeros_like(w), np.full_like(w, lr)
    for g in grads:
        g = -g if maximize else g
        sign = np.sign(g * prev)
        size = np.clip(size * np.where(sign > 0, etas[1], np.where(sign < 0, etas[0], 1.0)),
                       *step_sizes)
        g = np.where(sign < 0, 0.0, g)
        w, prev = w - np.sign(g) * size, g
    return w


CASES = [  # (name, reference, arguments): each option where the optimizer has it
    ("Adadelta", _adadelta, dict(lr=0.5, rho=0.8, eps=1e-3, weight_decay=0.1, maximize=True)),
    ("Adadelta", _adadelta, dict()),
    ("Adagrad", _adagrad, dict(lr=0.1, lr_decay=0.2, weight_decay=0.1,
                               initial_accumulator_value=0.3, eps=1e-6, maximize=True)),
    ("Adagrad", _adagrad, dict(lr=0.1)),
    ("Adamax", _adamax, dict(lr=0.1, betas=(0.8, 0.9), eps=1e-3, weight_decay=0.1,
                             maximize=True)),
    ("Adamax", _adamax, dict(lr=0.1)),
    ("ASGD", _asgd, dict(lr=0.1, lambd=0.1, alpha=0.5, t0=2.0, weight_decay=0.1, maximize=True)),
    ("ASGD", _asgd, dict(lr=0.1)),
    ("NAdam", _nadam, dict(lr=0.1, betas=(0.8, 0.9), eps=1e-3, weight_decay=0.1,
                           momentum_decay=0.1)),
    ("NAdam", _nadam, dict(lr=0.1)),
    ("RAdam", _radam, dict(lr=0.1, betas=(0.8, 0.9), eps=1e-3, weight_decay=0.1)),
    ("RAdam", _radam, dict(lr=0.1)),  # rectified from step 6 on
    ("RMSprop", _rmsprop, dict(lr=0.1, alpha=0.8, eps=1e-3, weight_decay=0.1, momentum=0.5,
                               centered=True, maximize=True)),
    ("RMSprop", _rmsprop, dict(lr=0.01, momentum=0.9)),
    ("RMSprop", _rmsprop, dict(centered=True)),
    ("Rprop", _rprop, dict(lr=0.1, etas=(0.4, 1.5), step_sizes=(0.01, 0.3), maximize=True)),
    ("Rprop", _rprop, dict()),
]


@pytest.mark.parametrize("name, reference, kwargs", CASES,
                         ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(CASES)])
def test_each_optimizer_follows_pytorchs_recurrence(name, reference, kwargs):
    w = ms.Parameter(ms.Tensor(W0.copy()), name="w")
    optimizer = getattr(optim, name)([w], **kwargs)
    for g in GRADS:
        optimizer((ms.Tensor(g),))
    expected = reference(W0.astype(np.float64), [g.astype(np.float64) for g in GRADS], **kwargs)
    np.testing.assert_allclose(w.asnumpy(), expected, rtol=2e-5, atol=2e-6)


def test_each_group_runs_its_own_hyperparameters_and_rate():
    a, b = (ms.Parameter(ms.Tensor(W0.copy()), name=n) for n in "ab")
    optimizer = optim.RMSprop([{"params": [a], "lr": 0.05, "centered": True},
                               {"params": [b], "momentum": 0.5}], lr=0.1, alpha=0.9)
    assert [float(g["lr"].asnumpy()) for g in optimizer.param_groups] == \
        pytest.approx([0.05, 0.1])
    for g in GRADS[:3]:
        optimizer((ms.Tensor(g), ms.Tensor(g)))
    grads = [g.astype(np.float64) for g in GRADS[:3]]
    np.testing.assert_allclose(a.asnumpy(), _rmsprop(W0, grads, 0.05, 0.9, centered=True),
                               rtol=2e-5, atol=2e-6)
    np.testing.assert_allclose(b.asnumpy(), _rmsprop(W0, grads, 0.1, 0.9, momentum=0.5),
                               rtol=2e-5, atol=2e-6)


def _train(name, kwargs, mode, steps=4):
    def make(net):
        optimizer = getattr(optim, name)(net.trainable_params(), **kwargs)
        return optimizer, sched.StepLR(optimizer, step_size=2, gamma=0.5)
    return train_with(mode, steps, make)


@pytest.mark.parametrize("index", [0, 2, 4, 6, 8, 10, 12, 15],
                         ids=lambda i: CASES[i][0])
def test_a_compiled_step_equals_the_eager_one(index):
    name, _, kwargs = CASES[index]
    try:
        eager, graph = _train(name, kwargs, ms.PYNATIVE_MODE), _train(name, kwargs,
                                                                      ms.GRAPH_MODE)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    for a, b in zip(eager, graph):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)


# ---- the schedulers ------------------------------------------------------------------------

BASE = 0.2


def _optimizer(lr=BASE, groups=None):
    params = nn.Dense(3, 2).trainable_params()
    return optim.SGD(groups(params) if groups else params, lr=lr, momentum=0.9)


def _lrs(scheduler, epochs, group=0, step=None):
    rates = [float(scheduler.get_last_lr()[group].asnumpy())]
    for e in range(epochs):
        scheduler.step() if step is None else scheduler.step(step(e))
        rates.append(float(scheduler.get_last_lr()[group].asnumpy()))
        lr = float(scheduler.optimizer.param_groups[group]["lr"].asnumpy())
        assert lr == rates[-1]
    return rates


def _cyclic(e, low, high, up, down, scale):
    cycle, at = divmod(e, up + down)
    rise = at / up if at <= up else (up + down - at) / down
    return low + (high - low) * rise * scale(cycle + 1, e)


def _restarts(e, t0, mult):
    """(T_cur, T_i) at epoch e."""
    period = t0
    while e >= period:
        e, period = e - period, period * mult
    return e, period


def test_sequential_lr_restarts_each_scheduler_at_its_milestone():
    o = _optimizer()
    s = sched.SequentialLR(o, [sched.LinearLR(o, 0.1, total_iters=4),
                               sched.CosineAnnealingLR(o, T_max=6, eta_min=0.01),
                               sched.ExponentialLR(o, 0.9)], milestones=[4, 10])

    def closed(e):
        if e < 4:
            return BASE * (0.1 + 0.9 * e / 4)
        if e < 10:
            return 0.01 + (BASE - 0.01) * (1 + math.cos(math.pi * (e - 4) / 6)) / 2
        return BASE * 0.9 ** (e - 10)
    np.testing.assert_allclose(_lrs(s, 16), [closed(e) for e in range(17)], rtol=1e-5)


def test_sequential_lr_as_mindspore_documents_it():
    o = _optimizer(0.1)
    s = sched.SequentialLR(o, [sched.ConstantLR(o, factor=0.1, total_iters=2),
                               sched.ExponentialLR(o, gamma=0.9)], milestones=[2])
    np.testing.assert_allclose(_lrs(s, 6)[1:], [0.01, 0.1, 0.09, 0.081, 0.0729, 0.06561],
                               rtol=1e-5)


def test_chained_scheduler_steps_each_in_turn():
    o = _optimizer()
    s = sched.ChainedScheduler([sched.StepLR(o, 3, 0.5), sched.ExponentialLR(o, 0.9)])
    np.testing.assert_allclose(_lrs(s, 10), [BASE * 0.5 ** (e // 3) * 0.9 ** e
                                             for e in range(11)], rtol=1e-5)


@pytest.mark.parametrize("mode, scale", [
    ("triangular", lambda cycle, e: 1.0),
    ("triangular2", lambda cycle, e: 0.5 ** (cycle - 1)),
    ("exp_range", lambda cycle, e: 0.9 ** e)])
def test_cyclic_lr_follows_its_closed_form(mode, scale):
    o = _optimizer(groups=lambda p: [{"params": p[:1]}, {"params": p[1:]}])
    s = sched.CyclicLR(o, base_lr=[0.01, 0.02], max_lr=0.1, step_size_up=3, step_size_down=2,
                       mode=mode, gamma=0.9)
    got = [[float(r.asnumpy()) for r in s.get_last_lr()]]
    for _ in range(24):
        s.step()
        got.append([float(r.asnumpy()) for r in s.get_last_lr()])
    np.testing.assert_allclose(got, [[_cyclic(e, low, 0.1, 3, 2, scale) for low in (0.01, 0.02)]
                                     for e in range(25)], rtol=1e-5)


def test_cyclic_lr_takes_a_scale_function_of_the_step():
    o = _optimizer()
    s = sched.CyclicLR(o, 0.01, 0.1, step_size_up=2, scale_fn=lambda x: 1 / (1 + x),
                       scale_mode="iterations")
    np.testing.assert_allclose(_lrs(s, 9), [_cyclic(e, 0.01, 0.1, 2, 2, lambda c, i: 1 / (1 + i))
                                            for e in range(10)], rtol=1e-5)


def test_warm_restarts_lengthen_by_t_mult():
    o = _optimizer()
    s = sched.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.01)

    def closed(e):
        cur, period = _restarts(e, 3, 2)
        return 0.01 + (BASE - 0.01) * (1 + math.cos(math.pi * cur / period)) / 2
    got = _lrs(s, 30)
    np.testing.assert_allclose(got, [closed(e) for e in range(31)], rtol=1e-5)
    assert got[3] == got[9] == got[21] == pytest.approx(BASE)   # the restarts


def test_warm_restarts_take_fractional_epochs():
    o = _optimizer(0.1)
    s = sched.CosineAnnealingWarmRestarts(o, 2)   # MindSpore's documented example, on
    epochs = [k // 3 + (k % 3) / 3 for k in range(9)]
    got = _lrs(s, 9, step=lambda k: epochs[k])[1:]
    np.testing.assert_allclose(got[:6], [0.1, 0.0933013, 0.075, 0.05, 0.025, 0.00669873],
                               rtol=1e-5)
    np.testing.assert_allclose(got, [0.05 * (1 + math.cos(math.pi * (e % 2) / 2))
                                     for e in epochs], rtol=1e-5)
    o = _optimizer(0.1)
    s = sched.CosineAnnealingWarmRestarts(o, 2, T_mult=3)
    epochs = [0.7 * k for k in range(30)]
    got = _lrs(s, 30, step=lambda k: epochs[k])[1:]
    np.testing.assert_allclose(got, [0.05 * (1 + math.cos(math.pi * c / p)) for c, p in
                                     (_restarts(e, 2, 3) for e in epochs)], rtol=1e-5,
                               atol=1e-8)


METRICS = [1.0, 0.9, 0.95, 0.95, 0.96, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 0.1, 0.2, 0.3, 0.4, 0.5,
           0.6, 0.7]


def test_plateau_waits_patience_then_cools_down():
    o = _optimizer()
    s = sched.ReduceLROnPlateau(o, "min", factor=0.5, patience=1, cooldown=2, min_lr=0.03)
    got = _lrs(s, len(METRICS), step=lambda k: METRICS[k])[1:]
    # two bad epochs (0.95, 0.95) halve the rate; 0.96 falls in the cooldown; 0.6, 0.7
    # halve it again; 0.8, 0.9 cool down, 1.0 is bad, 0.1 the best; 0.2, 0.3 reach min_lr
    # (0.03), which then stays: a change of eps or less is not made
    np.testing.assert_allclose(got, [0.2] * 3 + [0.1] * 4 + [0.05] * 6 + [0.03] * 5,
                               rtol=1e-6)


def test_plateau_max_mode_absolute_threshold_and_per_group_floors():
    o = _optimizer(groups=lambda p: [{"params": p[:1]}, {"params": p[1:], "lr": 0.05}])
    s = sched.ReduceLROnPlateau(o, mode="max", factor=0.1, patience=0, threshold=0.05,
                                threshold_mode="abs", min_lr=[0.0, 0.001])
    got = []
    for metric in [1.0, 1.04, 1.06, 1.5, 1.52, ms.Tensor(np.float32(1.53)), 2.0, 1.0]:
        s.step(metric)   # 1.04 and 1.52: not 0.05 better than the best
        got.append([float(r.asnumpy()) for r in s.get_last_lr()])
    np.testing.assert_allclose(got, [[0.2, 0.05], [0.02, 0.005], [0.02, 0.005], [0.02, 0.005],
                                     [0.002, 0.001], [2e-4, 0.001], [2e-4, 0.001],
                                     [2e-5, 0.001]], rtol=1e-5)


def test_a_new_scheduler_reaches_a_compiled_step():
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        w = ms.Parameter(ms.Tensor(np.zeros(2, np.float32)), name="w")
        o = optim.Adagrad([w], lr=1.0)
        s = sched.CyclicLR(o, 0.1, 0.5, step_size_up=2)
        step = ms.jit(lambda g: o((g,)))
        g = ms.Tensor(np.ones(2, np.float32))
        moved = []
        for _ in range(4):
            before = w.asnumpy().copy()
            step(g)
            moved.append(float((before - w.asnumpy())[0]))
            s.step()
        rates = [0.1, 0.3, 0.5, 0.3]   # Adagrad with one gradient of 1: lr / sqrt(t)
        np.testing.assert_allclose(moved, [r / math.sqrt(t) for t, r in enumerate(rates, 1)],
                                   rtol=1e-5)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


# ---- bad input -------------------------------------------------------------------------------

def _params():
    return nn.Dense(2, 2).trainable_params()


@pytest.mark.parametrize("name", ["Adadelta", "Adagrad", "Adamax", "ASGD", "NAdam", "RAdam",
                                  "RMSprop", "Rprop", "Adam", "AdamW", "SGD"])
def test_a_negative_or_non_finite_rate_is_refused(name):
    for lr in (-0.1, float("nan"), float("inf"), "0.1", True):
        with pytest.raises(SporelingError, match="lr must be"):
            getattr(optim, name)(_params(), lr=lr)
    with pytest.raises(SporelingError, match="lr must be"):
        getattr(optim, name)([{"params": _params(), "lr": -1.0}], lr=0.1)


@pytest.mark.parametrize("name, kwargs, message", [
    ("Adadelta", dict(rho=1.5), "rho"), ("Adadelta", dict(eps=float("nan")), "eps"),
    ("Adagrad", dict(lr_decay=-1.0), "lr_decay"),
    ("Adagrad", dict(initial_accumulator_value=float("inf")), "initial_accumulator_value"),
    ("Adamax", dict(betas=(0.9, 1.0)), r"betas\[1\]"), ("Adamax", dict(betas=0.9), "betas"),
    ("ASGD", dict(t0=float("nan")), "t0"), ("ASGD", dict(lambd="x"), "lambd"),
    ("NAdam", dict(momentum_decay=-0.1), "momentum_decay"), ("NAdam", dict(eps=0.0), "eps"),
    ("RAdam", dict(weight_decay=-1e-3), "weight_decay"),
    ("RMSprop", dict(momentum=float("nan")), "momentum"), ("RMSprop", dict(centered=1), "bool"),
    ("RMSprop", dict(maximize="yes"), "bool"), ("Rprop", dict(etas=(1.5, 1.2)), r"etas\[0\]"),
    ("Rprop", dict(etas=(0.5, 1.0)), r"etas\[1\]"), ("Rprop", dict(step_sizes=(-1, 50)),
                                                     "step_sizes"),
    ("Adam", dict(amsgrad="no"), "bool"), ("SGD", dict(lr=0.1, momentum=-0.5), "momentum"),
])
def test_bad_hyperparameters_are_refused(name, kwargs, message):
    kwargs = {"lr": 0.1, **kwargs}
    with pytest.raises(SporelingError, match=message):
        getattr(optim, name)(_params(), **kwargs)
    key, value = next((k, v) for k, v in kwargs.items() if k != "lr") if len(kwargs) > 1 \
        else ("lr", kwargs["lr"])
    with pytest.raises(SporelingError, match=message):   # a group's own value too
        getattr(optim, name)([{"params": _params(), key: value}], lr=0.1)


def test_keys_an_optimizer_does_not_have_are_refused():
    with pytest.raises(SporelingError, match="unknown keys"):
        optim.Rprop([{"params": _params(), "weight_decay": 0.1}])
    with pytest.raises(TypeError):
        optim.NAdam(_params(), maximize=True)   # 2.10's NAdam and RAdam have none
    with pytest.raises(TypeError):
        optim.Adadelta(_params(), 1.0, 0.9, 1e-6, 0.0, True)   # keyword-only, as 2.10's


def test_bad_schedulers_are_refused():
    o = _optimizer()
    with pytest.raises(SporelingError, match="mode must be"):
        sched.CyclicLR(o, 0.01, 0.1, mode="sine")
    with pytest.raises(SporelingError, match="one base_lr per parameter group"):
        sched.CyclicLR(o, [0.01, 0.02], 0.1)
    with pytest.raises(SporelingError, match="step_size_up"):
        sched.CyclicLR(o, 0.01, 0.1, step_size_up=0)
    for kwargs, message in [(dict(T_0=0), "T_0"), (dict(T_0=2.5), "T_0"),
                            (dict(T_0=2, T_mult=0), "T_mult"),
                            (dict(T_0=2, eta_min="0"), "eta_min")]:
        with pytest.raises(SporelingError, match=message):
            sched.CosineAnnealingWarmRestarts(o, **kwargs)
    with pytest.raises(SporelingError, match="epoch"):
        sched.CosineAnnealingWarmRestarts(o, 2).step(-1)
    for kwargs, message in [(dict(factor=1.0), "factor"), (dict(mode="avg"), "mode"),
                            (dict(threshold_mode="pct"), "threshold_mode"),
                            (dict(min_lr=[0.1, 0.2]), "one min_lr per parameter group"),
                            (dict(patience=-1), "patience"), (dict(cooldown=1.5), "cooldown")]:
        with pytest.raises(SporelingError, match=message):
            sched.ReduceLROnPlateau(o, **kwargs)
    with pytest.raises(SporelingError, match="experimental optimizer"):
        sched.ReduceLROnPlateau(nn.Adam(_params()))
    first, other = sched.StepLR(o, 2), sched.StepLR(_optimizer(), 2)
    with pytest.raises(SporelingError, match="one milestone fewer"):
        sched.SequentialLR(o, [first, sched.ExponentialLR(o, 0.9)], milestones=[2, 4])
    with pytest.raises(SporelingError, match="another optimizer"):
        sched.SequentialLR(o, [first, other], milestones=[2])
    with pytest.raises(SporelingError, match="another optimizer"):
        sched.ChainedScheduler([first, other])
    with pytest.raises(SporelingError, match="cannot be chained"):
        sched.ChainedScheduler([first, sched.ReduceLROnPlateau(o)])
    with pytest.raises(SporelingError, match="at least one"):
        sched.ChainedScheduler([])
