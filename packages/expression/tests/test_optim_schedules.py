"""Learning-rate schedules and per-step lists against their closed forms."""
import math

import numpy as np
import pytest

from sporeling.expression import optim


def test_schedule_classes_closed_forms():
    steps = range(0, 25)
    e = optim.ExponentialDecayLR(0.1, 0.9, 4)
    assert [e(s) for s in steps] == pytest.approx([0.1 * 0.9 ** (s / 4) for s in steps])
    es = optim.ExponentialDecayLR(0.1, 0.9, 4, is_stair=True)
    assert [es(s) for s in steps] == pytest.approx([0.1 * 0.9 ** (s // 4) for s in steps])
    n = optim.NaturalExpDecayLR(0.1, 0.5, 5)
    assert n(7) == pytest.approx(0.1 * math.exp(-0.5 * 7 / 5))
    i = optim.InverseDecayLR(0.1, 0.5, 5, is_stair=True)
    assert i(7) == pytest.approx(0.1 / (1 + 0.5 * 1))
    c = optim.CosineDecayLR(0.01, 0.1, 10)
    assert [c(s) for s in steps] == pytest.approx(
        [0.01 + 0.045 * (1 + math.cos(math.pi * min(s, 10) / 10)) for s in steps])
    p = optim.PolynomialDecayLR(0.1, 0.01, 10, 2.0)
    assert [p(s) for s in steps] == pytest.approx(
        [0.09 * (1 - min(s, 10) / 10) ** 2 + 0.01 for s in steps])
    pu = optim.PolynomialDecayLR(0.1, 0.01, 10, 1.0, update_decay_steps=True)
    assert pu(15) == pytest.approx(0.09 * (1 - 15 / 20) + 0.01)
    w = optim.WarmUpLR(0.1, 4)
    assert [w(s) for s in range(6)] == pytest.approx([0, 0.025, 0.05, 0.075, 0.1, 0.1])


def test_sequential_warmup_then_cosine():
    sched = optim.SequentialLR([optim.WarmUpLR(1.0, 5), optim.CosineDecayLR(0.0, 1.0, 10)],
                               [5])
    assert [sched(s) for s in range(5)] == pytest.approx([0, 0.2, 0.4, 0.6, 0.8])
    assert sched(5) == pytest.approx(1.0)
    assert sched(10) == pytest.approx(0.5)
    assert sched(30) == pytest.approx(0.0)
    with pytest.raises(ValueError, match="milestones"):
        optim.SequentialLR([optim.WarmUpLR(1.0, 5)], [5])


def test_dynamic_lr_lists():
    assert optim.piecewise_constant_lr([1, 3], [0.5, 0.1]) == [0.5, 0.1, 0.1]
    lr = optim.exponential_decay_lr(0.1, 0.5, total_step=6, step_per_epoch=2, decay_epoch=1)
    assert lr == pytest.approx([0.1, 0.1, 0.05, 0.05, 0.025, 0.025])
    lr = optim.exponential_decay_lr(0.1, 0.5, 8, 1, 3, is_stair=True)
    assert lr == pytest.approx([0.1 * 0.5 ** (i // 3) for i in range(8)])
    assert optim.natural_exp_decay_lr(0.1, 1.0, 3, 1, 1) == pytest.approx(
        [0.1 * math.exp(-i) for i in range(3)])
    assert optim.inverse_decay_lr(0.1, 1.0, 3, 1, 2) == pytest.approx(
        [0.1 / (1 + i / 2) for i in range(3)])
    cos = optim.cosine_decay_lr(0.0, 1.0, total_step=6, step_per_epoch=2, decay_epoch=2)
    assert cos == pytest.approx([1.0, 1.0, 0.5, 0.5, 0.0, 0.0])
    poly = optim.polynomial_decay_lr(0.1, 0.01, 6, 1, 4, power=1.0)
    assert poly == pytest.approx([0.09 * (1 - min(i, 4) / 4) + 0.01 for i in range(6)])
    polyu = optim.polynomial_decay_lr(0.1, 0.0, 6, 1, 2, power=1.0, update_decay_epoch=True)
    assert polyu == pytest.approx([0.1, 0.05, 0.0, 0.1 * (1 - 3 / 4), 0.0, 0.1 * (1 - 5 / 6)])
    assert optim.warmup_lr(0.1, 6, 2, 2) == pytest.approx([0, 0, 0.05, 0.05, 0.1, 0.1])


@pytest.mark.parametrize("call", [
    lambda: optim.piecewise_constant_lr([3, 1], [0.1, 0.2]),
    lambda: optim.piecewise_constant_lr([1], [0.1, 0.2]),
    lambda: optim.cosine_decay_lr(0.2, 0.1, 5, 1, 1),
    lambda: optim.warmup_lr(0.1, 0, 1, 1),
    lambda: optim.CosineDecayLR(0.0, 0.1, 0),
    lambda: optim.WarmUpLR(-0.1, 3),
])
def test_schedule_errors(call):
    with pytest.raises(ValueError):
        call()


def test_list_drives_optimizer():
    w = np.zeros(1)
    opt = optim.SGD([w], optim.piecewise_constant_lr([2, 4], [1.0, 0.1]))
    for _ in range(4):
        opt((np.ones(1),))
    np.testing.assert_allclose(w, [-2.2])


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_a_weight_decay_schedule_gives_each_step_its_decay(mode):
    # MindSpore's weight_decay Cell: called with the global step (an int32 Tensor), once a
    # step; eagerly and compiled alike, against the closed form
    import sporeling.expression as sx
    seen = []

    def decay(step):
        seen.append(step)
        return 0.1 * sx.ops.pow(0.5, step.astype(np.float32))
    w0 = np.array([1.0, -2.0], np.float32)
    w = sx.Parameter(w0.copy(), name="w")
    opt = optim.Momentum([w], learning_rate=0.1, momentum=0.0, weight_decay=decay)
    sx.set_context(mode=sx.GRAPH_MODE if mode == "graph" else sx.PYNATIVE_MODE)
    try:
        step = sx.jit(opt) if mode == "graph" else opt
        g = sx.Tensor(np.array([0.5, 0.5], np.float32))
        for _ in range(3):
            step((g,))
    finally:
        sx.set_context(mode=sx.PYNATIVE_MODE)
    want = w0.astype(np.float64)
    for k in range(3):
        want = want - 0.1 * (0.5 + 0.1 * 0.5 ** k * want)
    np.testing.assert_allclose(w.asnumpy(), want, rtol=1e-6)
    assert opt.global_step == 3
    if mode == "pynative":
        assert [int(s.asnumpy()) for s in seen] == [0, 1, 2] and seen[0].dtype == np.int32
