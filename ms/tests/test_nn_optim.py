"""``ms.nn`` optimizers against NumPy references of MindSpore's documented update rules."""
import numpy as np
import pytest

import sporeling.ms as ms
from sporeling.ms import nn

from _reference import np_of

RNG = np.random.default_rng(4)
W0 = RNG.normal(size=(3, 2))
GRADS = [RNG.normal(size=(3, 2)) for _ in range(4)]


def run(make, w0=W0, grads=GRADS, name="w"):
    p = ms.Parameter(ms.Tensor(w0.copy()), name=name)
    opt = make([p])
    for g in grads:
        opt((ms.Tensor(g),))
    return np_of(p)


def adam_weight_decay_reference(w, grads, lr, b1, b2, eps, wd):
    m, v = np.zeros_like(w), np.zeros_like(w)
    for g in grads:
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        w = w - lr * (m / (np.sqrt(v) + eps) + wd * w)
    return w


def test_adam_weight_decay_is_mindspores_rule():
    got = run(lambda p: nn.AdamWeightDecay(p, learning_rate=0.01, weight_decay=0.1))
    expected = adam_weight_decay_reference(W0, GRADS, 0.01, 0.9, 0.999, 1e-6, 0.1)
    np.testing.assert_allclose(got, expected, rtol=1e-12)
    # differs from PyTorch's AdamW (bias correction, decay outside the step)
    adamw = W0.copy()
    m, v = np.zeros_like(adamw), np.zeros_like(adamw)
    for step, g in enumerate(GRADS, 1):
        adamw *= 1 - 0.01 * 0.1
        m, v = 0.9 * m + 0.1 * g, 0.999 * v + 0.001 * g * g
        adamw -= 0.01 / (1 - 0.9 ** step) * m / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-6)
    assert np.abs(got - adamw).max() > 1e-4


def test_adam_weight_decay_skips_beta_gamma_and_takes_groups_and_schedules():
    got = run(lambda p: nn.AdamWeightDecay(p, learning_rate=0.01, weight_decay=0.5),
              name="norm.gamma")
    np.testing.assert_allclose(got, adam_weight_decay_reference(W0, GRADS, 0.01, 0.9, 0.999,
                                                                1e-6, 0.0), rtol=1e-12)
    p = ms.Parameter(ms.Tensor(W0.copy()), name="norm.gamma")
    opt = nn.AdamWeightDecay([{"params": [p], "weight_decay": 0.5}], learning_rate=0.01)
    for g in GRADS:
        opt((ms.Tensor(g),))
    np.testing.assert_allclose(np_of(p), adam_weight_decay_reference(
        W0, GRADS, 0.01, 0.9, 0.999, 1e-6, 0.5), rtol=1e-12)
    lrs = [0.1, 0.05, 0.02, 0.01]
    got = run(lambda p: nn.AdamWeightDecay(p, learning_rate=lrs, eps=1e-8))
    w, m, v = W0.copy(), 0 * W0, 0 * W0
    for lr, g in zip(lrs, GRADS):
        m, v = 0.9 * m + 0.1 * g, 0.999 * v + 0.001 * g * g
        w = w - lr * m / (np.sqrt(v) + 1e-8)
    np.testing.assert_allclose(got, w, rtol=1e-12)
    with pytest.raises(ValueError, match="beta1"):
        nn.AdamWeightDecay([ms.Parameter(ms.Tensor(W0), name="w")], beta1=1.0)


def test_adam_weight_decay_trains_a_dense_layer():
    ms.set_seed(0)
    net = nn.Dense(3, 1)
    x = ms.Tensor(RNG.normal(size=(32, 3)).astype(np.float32))
    y = x @ ms.Tensor(np.array([[1.0], [-2.0], [0.5]], np.float32))
    opt = nn.AdamWeightDecay(net.trainable_params(), learning_rate=0.05, weight_decay=1e-4)
    loss_fn = nn.MSELoss()
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)
    first = None
    for _ in range(60):
        loss, grads = grad_fn(x, y)
        first = float(loss) if first is None else first
        opt(grads)
    assert float(loss) < 0.05 * first


def _adam(w, grads, lr=0.01, b1=0.9, b2=0.999, eps=1e-8, nesterov=False, amsgrad=False):
    m, v, vmax = 0 * w, 0 * w, 0 * w
    for step, g in enumerate(grads, 1):
        m, v = b1 * m + (1 - b1) * g, b2 * v + (1 - b2) * g * g
        vmax = np.maximum(vmax, v)
        lr_t = lr * np.sqrt(1 - b2 ** step) / (1 - b1 ** step)
        direction = b1 * m + (1 - b1) * g if nesterov else m
        w = w - lr_t * direction / (np.sqrt(vmax if amsgrad else v) + eps)
    return w


def _lamb(w, grads, lr=0.01, b1=0.9, b2=0.999, eps=1e-6, wd=0.1):
    m, v = 0 * w, 0 * w
    for step, g in enumerate(grads, 1):
        m, v = b1 * m + (1 - b1) * g, b2 * v + (1 - b2) * g * g
        update = (m / (1 - b1 ** step)) / (np.sqrt(v / (1 - b2 ** step)) + eps) + wd * w
        w = w - lr * min(np.linalg.norm(w) / np.linalg.norm(update), 10.0) * update
    return w


def _adamax(w, grads, lr=0.01, b1=0.9, b2=0.999, eps=1e-8):
    m, v = 0 * w, 0 * w
    for step, g in enumerate(grads, 1):
        m, v = b1 * m + (1 - b1) * g, np.maximum(b2 * v, np.abs(g))
        w = w - lr / (1 - b1 ** step) * m / (v + eps)
    return w


def _adadelta(w, grads, lr=1.0, rho=0.9, eps=1e-6):
    acc, acc_u = 0 * w, 0 * w
    for g in grads:
        acc = rho * acc + (1 - rho) * g * g
        u = np.sqrt(acc_u + eps) / np.sqrt(acc + eps) * g
        acc_u = rho * acc_u + (1 - rho) * u * u
        w = w - lr * u
    return w


def _adagrad(w, grads, lr=0.1, accum=0.1):
    a = np.full_like(w, accum)
    for g in grads:
        a = a + g * g
        w = w - lr * g / np.sqrt(a)
    return w


def _ftrl(w, grads, lr=0.1, p=-0.5, l1=0.01, l2=0.02, init=0.1):
    m, z = np.full_like(w, init), 0 * w
    for g in grads:
        m_new = m + g * g
        z = z + g - (m_new ** -p - m ** -p) / lr * w
        m = m_new
        w = np.where(np.abs(z) > l1, (np.sign(z) * l1 - z) / (m ** -p / lr + 2 * l2), 0.0)
    return w


def _proximal_adagrad(w, grads, lr=0.1, l1=0.01, l2=0.02, accum=0.1):
    a = np.full_like(w, accum)
    for g in grads:
        a = a + g * g
        v = w - lr * g / np.sqrt(a)
        w = np.sign(v) / (1 + lr * l2) * np.maximum(np.abs(v) - lr * l1, 0)
    return w


def _rmsprop(w, grads, lr=0.01, decay=0.9, mom=0.5, eps=1e-10, centered=False):
    s, m, ga = 0 * w, 0 * w, 0 * w
    for g in grads:
        s = decay * s + (1 - decay) * g * g
        ga = decay * ga + (1 - decay) * g
        m = mom * m + lr * g / np.sqrt((s - ga * ga if centered else s) + eps)
        w = w - m
    return w


def _rprop(w, grads, lr=0.1, etas=(0.5, 1.2), sizes=(1e-6, 50.0)):
    prev, step = 0 * w, np.full_like(w, lr)
    for g in grads:
        sign = g * prev
        step = np.clip(np.where(sign > 0, step * etas[1], np.where(sign < 0, step * etas[0],
                                                                    step)), *sizes)
        g = np.where(sign < 0, 0, g)
        w = w - np.sign(g) * step
        prev = g
    return w


def _asgd(w, grads, lr=0.1, lambd=1e-4, alpha=0.75):
    eta = lr
    for step, g in enumerate(grads, 1):
        w = w * (1 - lambd * eta) - eta * g
        eta = lr / (1 + lambd * lr * step) ** alpha
    return w


def _sgd(w, grads, lr=0.1, mom=0.9, dampening=0.0, wd=0.0, nesterov=False):
    buf = None
    for g in grads:
        g = g + wd * w
        buf = g.copy() if buf is None else mom * buf + (1 - dampening) * g
        w = w - lr * (g + mom * buf if nesterov else buf)
    return w


SIGNED_GRADS = [g * (1 if i % 2 else -1) for i, g in enumerate(GRADS)]

CASES = [
    ("Adam", lambda p: nn.Adam(p, 0.01), _adam(W0, GRADS)),
    ("Adam-nesterov", lambda p: nn.Adam(p, 0.01, use_nesterov=True), _adam(W0, GRADS,
                                                                           nesterov=True)),
    ("Adam-amsgrad", lambda p: nn.Adam(p, 0.01, use_amsgrad=True), _adam(W0, GRADS,
                                                                         amsgrad=True)),
    ("Adam-l2", lambda p: nn.Adam(p, 0.01, weight_decay=0.1), None),
    ("LazyAdam", lambda p: nn.LazyAdam(p, 0.01), _adam(W0, GRADS)),
    ("AdaMax", lambda p: nn.AdaMax(p, 0.01), _adamax(W0, GRADS)),
    ("Lamb", lambda p: nn.Lamb(p, 0.01, weight_decay=0.1), _lamb(W0, GRADS)),
    ("Lamb-clipped-ratio", lambda p: nn.Lamb(p, 0.01), _lamb(W0 * 50, GRADS, wd=0.0)),
    ("Adadelta", lambda p: nn.Adadelta(p), _adadelta(W0, GRADS)),
    ("Adagrad", lambda p: nn.Adagrad(p, learning_rate=0.1), _adagrad(W0, GRADS)),
    ("FTRL", lambda p: nn.FTRL(p, learning_rate=0.1, l1=0.01, l2=0.02), _ftrl(W0, GRADS)),
    ("ProximalAdagrad", lambda p: nn.ProximalAdagrad(p, learning_rate=0.1, l1=0.01, l2=0.02),
     _proximal_adagrad(W0, GRADS)),
    ("RMSProp", lambda p: nn.RMSProp(p, 0.01, momentum=0.5), _rmsprop(W0, GRADS)),
    ("RMSProp-centered", lambda p: nn.RMSProp(p, 0.01, momentum=0.5, epsilon=1e-6,
                                              centered=True),
     _rmsprop(W0, GRADS, eps=1e-6, centered=True)),
    ("Rprop", lambda p: nn.Rprop(p), _rprop(W0, SIGNED_GRADS)),
    ("ASGD", lambda p: nn.ASGD(p), _asgd(W0, GRADS)),
    ("SGD", lambda p: nn.SGD(p, 0.1, momentum=0.9, dampening=0.1, weight_decay=0.01),
     _sgd(W0, GRADS, dampening=0.1, wd=0.01)),
    ("Momentum", lambda p: nn.Momentum(p, 0.1, 0.9, use_nesterov=True),
     _sgd(W0, GRADS, nesterov=True)),
]


@pytest.mark.parametrize("name, make, expected", CASES, ids=[c[0] for c in CASES])
def test_optimizer_matches_reference(name, make, expected):
    grads = SIGNED_GRADS if name == "Rprop" else GRADS
    if name == "Lamb-clipped-ratio":  # ||w|| / ||update|| is about 50 * 2.4: clipped to 10
        np.testing.assert_allclose(run(make, w0=W0 * 50), expected, rtol=1e-10)
        return
    if name == "Adam-l2":  # L2 weight decay is added to each gradient first
        w, step_grads = W0.copy(), []
        p = ms.Parameter(ms.Tensor(W0.copy()), name="w")
        opt = nn.Adam([p], 0.01, weight_decay=0.1)
        m, v = 0 * w, 0 * w
        for step, g in enumerate(grads, 1):
            g = g + 0.1 * w
            m, v = 0.9 * m + 0.1 * g, 0.999 * v + 0.001 * g * g
            w = w - 0.01 * np.sqrt(1 - 0.999 ** step) / (1 - 0.9 ** step) * m / (np.sqrt(v) +
                                                                                1e-8)
        for g in grads:
            opt((ms.Tensor(g),))
        np.testing.assert_allclose(np_of(p), w, rtol=1e-12)
        return
    np.testing.assert_allclose(run(make, grads=grads), expected, rtol=1e-10, atol=1e-12)


def test_lars_scales_gradients_by_trust_ratio():
    w = ms.Parameter(ms.Tensor(W0.copy()), name="dense.weight")
    b = ms.Parameter(ms.Tensor(np.ones(2)), name="dense.bias")
    lars = nn.LARS(nn.SGD([w, b], 0.1, weight_decay=0.01), coefficient=0.02)
    g_w, g_b = GRADS[0], np.full(2, 0.5)
    lars((ms.Tensor(g_w), ms.Tensor(g_b)))
    trust = 0.02 * np.linalg.norm(W0) / (np.linalg.norm(g_w) + 0.01 * np.linalg.norm(W0) + 1e-5)
    np.testing.assert_allclose(np_of(w), W0 - 0.1 * trust * (g_w + 0.01 * W0), rtol=1e-12)
    np.testing.assert_allclose(np_of(b), np.ones(2) - 0.1 * g_b, rtol=1e-12)  # filtered out


def test_optimizer_base_and_learning_rate_schedules():
    assert issubclass(nn.AdamWeightDecay, nn.Optimizer)
    p = ms.Parameter(ms.Tensor(W0.copy()), name="w")
    schedule = nn.CosineDecayLR(0.01, 0.1, 4)
    opt = nn.SGD([p], learning_rate=schedule)
    assert isinstance(schedule, nn.LearningRateSchedule)
    np.testing.assert_allclose(float(np_of(schedule(ms.Tensor(np.array(2))))),
                               0.01 + 0.5 * 0.09 * (1 + np.cos(np.pi * 2 / 4)), rtol=1e-6)
    opt((ms.Tensor(GRADS[0]),))
    np.testing.assert_allclose(np_of(p), W0 - 0.1 * GRADS[0], rtol=1e-6)


LR_SCHEDULES = [
    ("ExponentialDecayLR", lambda: nn.ExponentialDecayLR(0.1, 0.9, 4), 3,
     0.1 * 0.9 ** (3 / 4)),
    ("InverseDecayLR", lambda: nn.InverseDecayLR(0.1, 0.5, 4, is_stair=True), 5,
     0.1 / (1 + 0.5 * 1)),
    ("NaturalExpDecayLR", lambda: nn.NaturalExpDecayLR(0.1, 0.9, 4), 2,
     0.1 * np.exp(-0.9 * 2 / 4)),
    ("PolynomialDecayLR", lambda: nn.PolynomialDecayLR(0.1, 0.01, 4, 0.5), 2,
     (0.1 - 0.01) * (1 - 2 / 4) ** 0.5 + 0.01),
    ("WarmUpLR", lambda: nn.WarmUpLR(0.1, 4), 2, 0.05),
]


@pytest.mark.parametrize("name, make, step, expected", LR_SCHEDULES,
                         ids=[c[0] for c in LR_SCHEDULES])
def test_learning_rate_schedules(name, make, step, expected):
    np.testing.assert_allclose(float(np_of(make()(ms.Tensor(np.array(step))))), expected,
                               rtol=1e-5)


def test_dynamic_lr_functions_documented_examples():
    np.testing.assert_allclose(nn.cosine_decay_lr(0.01, 0.1, 6, 2, 2),
                               [0.1, 0.1, 0.05500000000000001, 0.05500000000000001, 0.01, 0.01])
    np.testing.assert_allclose(nn.exponential_decay_lr(0.1, 0.9, 6, 2, 1),
                               [0.1, 0.1, 0.09000000000000001, 0.09000000000000001,
                                0.08100000000000002, 0.08100000000000002])
    np.testing.assert_allclose(nn.inverse_decay_lr(0.1, 0.5, 6, 1, 1),
                               [0.1, 0.06666666666666667, 0.05, 0.04, 0.03333333333333333,
                                0.028571428571428574])
    np.testing.assert_allclose(nn.natural_exp_decay_lr(0.1, 0.9, 6, 2, 2, True),
                               [0.1, 0.1, 0.1, 0.1, 0.016529888822158657,
                                0.016529888822158657])
    np.testing.assert_allclose(nn.natural_exp_decay_lr(0.1, 0.9, 4, 2, 2),
                               [0.1, 0.1, 0.1 * np.exp(-0.9), 0.1 * np.exp(-0.9)])
    np.testing.assert_allclose(nn.piecewise_constant_lr([2, 5, 10], [0.1, 0.05, 0.01]),
                               [0.1, 0.1, 0.05, 0.05, 0.05, 0.01, 0.01, 0.01, 0.01, 0.01])
    np.testing.assert_allclose(nn.polynomial_decay_lr(0.1, 0.01, 6, 2, 2, 0.5),
                               [0.1, 0.1, 0.07363961030678928, 0.07363961030678928, 0.01, 0.01])
    np.testing.assert_allclose(nn.warmup_lr(0.1, 6, 2, 2),
                               [0.0, 0.0, 0.05, 0.05, 0.1, 0.1])


class MindSporeStyleMomentum(nn.Optimizer):
    """A custom optimizer written as MindSpore's tutorial does: state cloned from the
    parameters, updated with ops.assign in construct."""

    def __init__(self, params, learning_rate, momentum=0.9):
        super().__init__(learning_rate, params)
        self.momentum = momentum
        self.moments = self.parameters.clone(prefix="moments", init="zeros")

    def construct(self, gradients):
        lr = self.get_lr()
        for param, moment, grad in zip(self.parameters, self.moments, gradients):
            ms.ops.assign(moment, moment * self.momentum + grad)
            ms.ops.assign(param, param - lr * moment)
        return True


def test_custom_optimizer_with_construct():
    p = ms.Parameter(ms.Tensor(W0.copy()), name="w")
    opt = MindSporeStyleMomentum([p], 0.1)
    for g in GRADS:
        opt((ms.Tensor(g),))
    np.testing.assert_allclose(np_of(p), _sgd(W0, GRADS), rtol=1e-10)
    assert opt.global_step == 4 and isinstance(opt.parameters, ms.ParameterTuple)
    assert isinstance(nn.SGD([p], 0.1), nn.Optimizer) and isinstance(nn.Adam([p]), nn.Optimizer)
    decayed = nn.SGD([p], 0.1, weight_decay=0.5, loss_scale=4.0)
    (g,) = decayed.scale_grad(decayed.decay_weight((ms.Tensor(GRADS[0]),)))
    np.testing.assert_allclose(np_of(g), (GRADS[0] + 0.5 * np_of(p)) / 4.0, rtol=1e-12)
    with pytest.raises(ValueError, match="expected 1 gradients"):
        opt((ms.Tensor(GRADS[0]), ms.Tensor(GRADS[1])))


def test_custom_optimizer_compiles_into_the_jitted_step():
    """Its ``ops.assign`` updates and ``global_step`` are recorded into the jitted training
    step (``assign`` equations at the graph's end) and match PyNative."""
    def run(jit):
        p = ms.Parameter(ms.Tensor(np.ones(3, np.float32)), name="w")
        opt = MindSporeStyleMomentum([p], 0.1)
        grad_fn = ms.value_and_grad(lambda x: ((p * x) ** 2).sum(), None, [p])

        def step(x):
            loss, grads = grad_fn(x)
            opt(grads)
            return loss

        f = ms.jit(step) if jit else step
        x = ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32))
        return [float(f(x).asnumpy()) for _ in range(5)], p.asnumpy().copy(), opt, f

    eager_losses, eager_w, _, _ = run(False)
    losses, w, opt, f = run(True)
    np.testing.assert_allclose(losses, eager_losses, rtol=1e-6)
    np.testing.assert_allclose(w, eager_w, rtol=1e-6)
    assert opt.global_step == 5 and f.compile_count == 1
