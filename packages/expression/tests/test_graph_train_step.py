"""MindSpore 2.x's training step under ``@jit``: forward, backward and the optimiser's
update compiled as one graph, the update written by ``assign`` equations at its end.
Compared with the same step run eagerly (PyNative) over 20 steps."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.expression import nn
from sporeling.expression.optim import SGD, Adam, AdamW, Momentum, clip_by_global_norm

OPTIMIZERS = {
    "SGD": lambda ps: SGD(ps, learning_rate=0.05, weight_decay=1e-3),
    "SGD-nesterov": lambda ps: SGD(ps, learning_rate=0.05, momentum=0.9, nesterov=True),
    "SGD-dampening": lambda ps: SGD(ps, learning_rate=0.05, momentum=0.9, dampening=0.3),
    "Momentum": lambda ps: Momentum(ps, learning_rate=0.05, momentum=0.9),
    "Adam": lambda ps: Adam(ps, learning_rate=1e-2, weight_decay=1e-3),
    "Adam-amsgrad": lambda ps: Adam(ps, learning_rate=1e-2, use_amsgrad=True),
    "AdamW": lambda ps: AdamW(ps, learning_rate=1e-2, weight_decay=0.05),
}


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(6, 16)
        self.fc2 = nn.Dense(16, 3)

    def construct(self, x):
        return self.fc2(sx.ops.relu(self.fc1(x)))


def _setup(opt_name, scale=None, clip=None):
    sx.set_seed(0)
    net = Net()
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = OPTIMIZERS[opt_name](net.trainable_params())

    def forward(x, y):  # a static loss scale (sporeling.amp's scalers: the amp tests)
        logits = net(x)
        loss = loss_fn(logits, y)
        return (loss * scale if scale else loss), logits

    grad_fn = sx.value_and_grad(forward, None, opt.parameters, has_aux=True)

    def train_step(x, y):
        (loss, _), grads = grad_fn(x, y)
        if scale:
            loss, grads = loss / scale, tuple(g / scale for g in grads)
        if clip:
            grads = clip_by_global_norm(grads, clip)
        opt(grads)
        return loss

    return net, opt, train_step


def _data(steps=20):
    rng = np.random.default_rng(1)
    return [(sx.Tensor(rng.standard_normal((8, 6)).astype(np.float32)),
             sx.Tensor(rng.integers(0, 3, 8).astype(np.int32))) for _ in range(steps)]


def _run(step, batches):
    return [float(step(x, y).asnumpy()) for x, y in batches]


@pytest.mark.parametrize("scale, clip", [(None, None), (1024.0, None), (None, 0.5),
                                         (128.0, 0.5)])
@pytest.mark.parametrize("opt_name", sorted(OPTIMIZERS))
def test_jitted_step_matches_pynative_over_20_steps(opt_name, scale, clip):
    batches = _data()
    eager_net, eager_opt, eager_step = _setup(opt_name, scale, clip)
    eager_losses = _run(eager_step, batches)
    net, opt, step = _setup(opt_name, scale, clip)
    jitted = sx.jit(step)
    losses = _run(jitted, batches)
    assert jitted.compile_count == 1
    np.testing.assert_allclose(losses, eager_losses, rtol=1e-6, atol=1e-6)
    for p, q in zip(net.trainable_params(), eager_net.trainable_params()):
        np.testing.assert_allclose(p.asnumpy(), q.asnumpy(), rtol=1e-6, atol=1e-6)
    assert opt.global_step == eager_opt.global_step == 20
    assert losses[-1] < losses[0]


def test_update_is_in_the_graph_as_assign_equations_at_its_end():
    _, opt, step = _setup("Adam")
    jitted = sx.jit(step)
    x, y = _data(1)[0]
    jitted(x, y)
    names = [eq.prim.name for eq in jitted.last_graph.equations]
    n_assign = names.count("assign")
    # 4 weights + their m, v, step + the global step
    assert n_assign == 4 * 4 + 1
    assert set(names[-n_assign:]) == {"assign"}
    assert "matmul" in names  # forward, backward and the update: one graph
    optimised = [eq.prim.name for eq in jitted.last_executable.graph.equations]
    assert optimised.count("assign") == n_assign  # the passes keep them, last
    assert set(optimised[-n_assign:]) == {"assign"}


def test_eager_state_and_compiled_state_are_one():
    """A jitted step after eager ones continues from their moments (and vice versa)."""
    batches = _data(6)
    ref_net, _, ref_step = _setup("Adam")
    ref = _run(ref_step, batches)
    net, opt, step = _setup("Adam")
    jitted = sx.jit(step)
    mixed = _run(step, batches[:2]) + _run(jitted, batches[2:4]) + _run(step, batches[4:])
    np.testing.assert_allclose(mixed, ref, rtol=1e-6)
    assert opt.global_step == 6


def test_a_schedule_that_cannot_be_traced_is_an_error_naming_it():
    """A callable step -> lr written on Python numbers cannot run on the traced step: a named
    error, not an eager fallback (LearningRateSchedules compile: test_graph_optim_compiled)."""
    from sporeling.core import SporelingError
    sx.set_seed(0)
    net = Net()
    opt = SGD(net.trainable_params(), learning_rate=lambda step: 0.1 * 0.9 ** int(step))
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    grad_fn = sx.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)

    @sx.jit
    def train_step(x, y):
        loss, grads = grad_fn(x, y)
        opt(grads)
        return loss

    x, y = _data(1)[0]
    with pytest.raises(SporelingError, match="learning-rate schedule that cannot be compiled"):
        train_step(x, y)


PER_STEP = [0.05, 0.04, 0.03, 0.02, 0.01, 0.005, 0.001]  # 20 steps: the last value stays


@pytest.mark.parametrize("make", [
    lambda ps: SGD(ps, learning_rate=PER_STEP, momentum=0.9),
    lambda ps: Adam(ps, learning_rate=PER_STEP),
    lambda ps: AdamW(ps, learning_rate=PER_STEP, weight_decay=0.1),
    lambda ps: Momentum([{"params": ps[:2], "lr": PER_STEP[::-1]}, {"params": ps[2:]}],
                        learning_rate=0.02, momentum=0.9),
], ids=["SGD", "Adam", "AdamW", "Momentum-groups"])
def test_per_step_learning_rates_are_read_at_the_compiled_step(make):
    OPTIMIZERS["per-step"] = make
    try:
        batches = _data()
        eager_net, _, eager_step = _setup("per-step")
        eager = _run(eager_step, batches)
        net, opt, step = _setup("per-step")
        jitted = sx.jit(step)
        np.testing.assert_allclose(_run(jitted, batches), eager, rtol=1e-6, atol=1e-6)
    finally:
        del OPTIMIZERS["per-step"]
    assert jitted.compile_count == 1 and opt.global_step == 20
    for p, q in zip(net.trainable_params(), eager_net.trainable_params()):
        np.testing.assert_allclose(p.asnumpy(), q.asnumpy(), rtol=1e-6, atol=1e-6)


def test_assign_writes_into_the_parameters_own_buffers():
    net, opt, step = _setup("Momentum")
    jitted = sx.jit(step)
    batches = _data(2)
    _run(jitted, batches[:1])
    buffers = [p._data for p in net.trainable_params()]
    before = [b.copy() for b in buffers]
    _run(jitted, batches[1:])
    for p, buf, old in zip(net.trainable_params(), buffers, before):
        assert p._data is buf and not np.array_equal(buf, old)


def test_batchnorm_statistics_are_assigned_in_the_graph():
    sx.set_seed(0)
    bn = nn.BatchNorm1d(4)
    bn.set_train(True)

    @sx.jit
    def f(x):
        return bn(x).sum()

    x = sx.Tensor(np.random.default_rng(0).standard_normal((8, 4)).astype(np.float32))
    mean = bn.moving_mean._data
    f(x)
    f(x)
    assert "assign" in [eq.prim.name for eq in f.last_graph.equations]
    assert bn.moving_mean._data is mean
    expected = 0.19 * x.asnumpy().mean(0)  # momentum 0.9, two steps from zeros
    np.testing.assert_allclose(mean, expected, rtol=1e-5, atol=1e-6)


def _returns_old_and_new_weights():
    w = sx.Parameter(np.ones(3, np.float32), name="w")
    opt = SGD([w], learning_rate=0.5)
    grad_fn = sx.value_and_grad(lambda x: (w * x).sum(), None, [w])

    def step(x):
        loss, grads = grad_fn(x)
        old, same = w * 1.0, w + 0.0  # the simplifier makes both the input w itself
        opt(grads)
        return loss, old, same, w

    return step


def test_outputs_read_before_the_update_keep_the_old_values():
    x = sx.Tensor(np.ones(3, np.float32))
    eager, jitted = _returns_old_and_new_weights(), sx.jit(_returns_old_and_new_weights())
    for _ in range(3):
        expected = [t.asnumpy().copy() for t in eager(x)]
        got = [t.asnumpy().copy() for t in jitted(x)]
        for e, g in zip(expected, got):
            np.testing.assert_array_equal(g, e)
    assert jitted.compile_count == 1


def test_a_view_of_a_weight_returned_from_a_step_keeps_its_value():
    """(PyNative's view shares the weight's memory and sees the update; a compiled graph's
    outputs are values, as MindSpore's.)"""
    w = sx.Parameter(np.ones(3, np.float32), name="w")
    opt = SGD([w], learning_rate=0.5)
    grad_fn = sx.value_and_grad(lambda x: (w * x).sum(), None, [w])

    @sx.jit
    def step(x):
        _, grads = grad_fn(x)
        view = w.reshape((3, 1))
        opt(grads)
        return view

    x = sx.Tensor(np.ones(3, np.float32))
    first, second = step(x), step(x)
    assert first.asnumpy().ravel().tolist() == [1.0] * 3
    assert second.asnumpy().ravel().tolist() == [0.5] * 3
    assert w.asnumpy().tolist() == [0.0] * 3


def test_a_direct_compiler_assign_in_a_compiled_function_is_refused_with_its_line():
    from sporeling.compiler import ops as cops
    from sporeling.core import SporelingError
    w = sx.Parameter(np.ones(3, np.float32), name="w")

    @sx.jit
    def f(x):
        cops.assign(w, w * 2.0)  # would write before the read below
        return (w * x).sum()

    with pytest.raises(SporelingError, match="assign in the middle") as info:
        f(sx.Tensor(np.ones(3, np.float32)))
    assert "test_graph_train_step.py" in str(info.value)
    assert w.asnumpy().tolist() == [1.0] * 3
