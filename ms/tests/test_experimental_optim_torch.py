"""``ms.experimental.optim``'s optimizers and schedulers against torch.optim (PyTorch's
numerics, which MindSpore 2.10's experimental ones follow), when torch is installed (the
``torch-crosscheck`` tox environment). ``test_experimental_optim_more.py`` checks the same
against NumPy recurrences and closed forms without torch."""
import numpy as np
import pytest

import sporeling.ms as ms
from sporeling.ms import nn
from sporeling.ms.experimental import optim
from sporeling.ms.experimental.optim import lr_scheduler as sched

torch = pytest.importorskip("torch")
T = torch.optim.lr_scheduler

RNG = np.random.default_rng(3)
W0 = RNG.standard_normal((4, 5)).astype(np.float32)
GRADS = [RNG.standard_normal((4, 5)).astype(np.float32) for _ in range(10)]

OPTIMIZERS = [
    ("Adadelta", dict(lr=0.5, rho=0.8, eps=1e-3, weight_decay=0.1, maximize=True)),
    ("Adagrad", dict(lr=0.1, lr_decay=0.2, weight_decay=0.1, initial_accumulator_value=0.3,
                     eps=1e-6, maximize=True)),
    ("Adamax", dict(lr=0.1, betas=(0.8, 0.9), eps=1e-3, weight_decay=0.1, maximize=True)),
    ("ASGD", dict(lr=0.1, lambd=0.1, alpha=0.5, t0=3.0, weight_decay=0.1, maximize=True)),
    ("NAdam", dict(lr=0.1, betas=(0.8, 0.9), eps=1e-3, weight_decay=0.1,
                   momentum_decay=0.1)),
    ("RAdam", dict(lr=0.1, weight_decay=0.1)),
    ("RMSprop", dict(lr=0.1, alpha=0.8, eps=1e-3, weight_decay=0.1, momentum=0.5,
                     centered=True, maximize=True)),
    ("Rprop", dict(lr=0.1, etas=(0.4, 1.5), step_sizes=(0.01, 0.3), maximize=True)),
]


@pytest.mark.parametrize("name, kwargs", OPTIMIZERS, ids=[n for n, _ in OPTIMIZERS])
def test_each_optimizer_matches_torch_under_a_schedule(name, kwargs):
    w = ms.Parameter(ms.Tensor(W0.copy()), name="w")
    ours = getattr(optim, name)([w], **kwargs)
    ours_sched = sched.ExponentialLR(ours, 0.8)
    tw = torch.nn.Parameter(torch.tensor(W0.copy()))
    theirs = getattr(torch.optim, name)([tw], **kwargs)
    theirs_sched = T.ExponentialLR(theirs, 0.8)
    for g in GRADS:
        ours((ms.Tensor(g),))
        tw.grad = torch.tensor(g)
        theirs.step()
        ours_sched.step()
        theirs_sched.step()
    np.testing.assert_allclose(w.asnumpy(), tw.detach().numpy(), rtol=1e-5, atol=1e-6)


SCHEDULERS = {
    "SequentialLR": (
        lambda o, m: m.SequentialLR(o, [m.LinearLR(o, 0.1, total_iters=4),
                                        m.CosineAnnealingLR(o, 6, 0.01),
                                        m.MultiStepLR(o, [2, 5], 0.5)], [4, 10]), None),
    "ChainedScheduler": (
        lambda o, m: m.ChainedScheduler([m.ConstantLR(o, 0.5, 3), m.ExponentialLR(o, 0.9)]),
        None),
    "CyclicLR": (lambda o, m: m.CyclicLR(o, 0.01, 0.1, 4, 3, mode="exp_range", gamma=0.95,
                                         **({} if m is sched else {"cycle_momentum": False})),
                 None),
    "CosineAnnealingWarmRestarts": (
        lambda o, m: m.CosineAnnealingWarmRestarts(o, 2, 3, 0.01), lambda k: 0.6 * k),
    "ReduceLROnPlateau": (
        lambda o, m: m.ReduceLROnPlateau(o, "max", 0.5, 1, 0.01, "rel", 1, 0.02),
        lambda k: [1, 2, 2, 2, 3, 3, 3, 3, 2, 1, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5][k]),
}


@pytest.mark.filterwarnings("ignore:Detected call of")  # no optimizer steps here
@pytest.mark.parametrize("name", sorted(SCHEDULERS))
def test_each_new_scheduler_matches_torch(name):
    make, argument = SCHEDULERS[name]
    ours_opt = optim.SGD(nn.Dense(2, 2).trainable_params(), lr=0.2, momentum=0.9)
    theirs_opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(2))], lr=0.2, momentum=0.9)
    ours, theirs = make(ours_opt, sched), make(theirs_opt, T)
    got, expected = [], []
    for k in range(22):
        for scheduler in (ours, theirs):
            scheduler.step() if argument is None else scheduler.step(argument(k))
        got.append(float(ours_opt.param_groups[0]["lr"].asnumpy()))
        expected.append(theirs_opt.param_groups[0]["lr"])
    np.testing.assert_allclose(got, expected, rtol=1e-5)
