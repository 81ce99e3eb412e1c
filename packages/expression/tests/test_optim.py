"""Optimisers against hand-written NumPy versions of PyTorch's update formulas."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.expression import optim

STEPS = 5


def _params(seed=0):
    rng = np.random.default_rng(seed)
    return [sx.Parameter(rng.standard_normal((3, 4)).astype(np.float64), name="w"),
            sx.Parameter(rng.standard_normal(4).astype(np.float64), name="b")]


def _grads(seed=1):
    rng = np.random.default_rng(seed)
    return [[rng.standard_normal((3, 4)), rng.standard_normal(4)] for _ in range(STEPS)]


def _run(make_opt, seed=0):
    params = _params(seed)
    opt = make_opt(params)
    for gs in _grads():
        assert opt(tuple(sx.Tensor(g) for g in gs)) is True
    assert opt.global_step == STEPS
    return [p.asnumpy() for p in params]


def _reference(update, lrs=(None, None), wds=(0.0, 0.0), seed=0):
    """Apply ``update(w, g, state, lr, wd)`` per parameter with fresh state."""
    ws = [p.asnumpy().copy() for p in _params(seed)]
    states = [{}, {}]
    for gs in _grads():
        for i, g in enumerate(gs):
            ws[i] = update(ws[i], g.copy(), states[i], lrs[i], wds[i])
    return ws


def _sgd_ref(momentum=0.0, dampening=0.0, nesterov=False):
    def update(w, g, s, lr, wd):
        g = g + wd * w
        if momentum:
            s["buf"] = g.copy() if "buf" not in s else momentum * s["buf"] + (1 - dampening) * g
            g = g + momentum * s["buf"] if nesterov else s["buf"]
        return w - lr * g
    return update


@pytest.mark.parametrize("momentum,dampening,nesterov", [
    (0.0, 0.0, False), (0.9, 0.0, False), (0.9, 0.1, False), (0.9, 0.0, True)])
def test_sgd_matches_reference(momentum, dampening, nesterov):
    got = _run(lambda ps: optim.SGD(ps, 0.1, momentum, dampening, weight_decay=0.01,
                                    nesterov=nesterov))
    want = _reference(_sgd_ref(momentum, dampening, nesterov), (0.1, 0.1), (0.01, 0.01))
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def test_momentum_is_sgd_without_dampening():
    got = _run(lambda ps: optim.Momentum(ps, 0.05, 0.9, use_nesterov=True))
    want = _reference(_sgd_ref(0.9, 0.0, True), (0.05, 0.05))
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def _adam_ref(b1=0.9, b2=0.999, eps=1e-8, amsgrad=False, decoupled=False):
    def update(w, g, s, lr, wd):
        if decoupled:
            w = w * (1 - lr * wd)
        else:
            g = g + wd * w
        t = s["t"] = s.get("t", 0) + 1
        s["m"] = b1 * s.get("m", 0) + (1 - b1) * g
        s["v"] = b2 * s.get("v", 0) + (1 - b2) * g * g
        v = s["v"]
        if amsgrad:
            v = s["vmax"] = np.maximum(s.get("vmax", 0), v)
        denom = np.sqrt(v) / np.sqrt(1 - b2 ** t) + eps
        return w - lr / (1 - b1 ** t) * s["m"] / denom
    return update


@pytest.mark.parametrize("amsgrad", [False, True])
def test_adam_matches_reference(amsgrad):
    got = _run(lambda ps: optim.Adam(ps, 0.01, 0.8, 0.9, 1e-6, weight_decay=0.1,
                                     use_amsgrad=amsgrad))
    want = _reference(_adam_ref(0.8, 0.9, 1e-6, amsgrad), (0.01, 0.01), (0.1, 0.1))
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=1e-10)


def test_adamw_decouples_weight_decay():
    got = _run(lambda ps: optim.AdamW(ps, 0.01, weight_decay=0.2))
    want = _reference(_adam_ref(decoupled=True), (0.01, 0.01), (0.2, 0.2))
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=1e-10)
    coupled = _reference(_adam_ref(), (0.01, 0.01), (0.2, 0.2))
    assert not np.allclose(got[0], coupled[0])


@pytest.mark.parametrize("centered,momentum", [(False, 0.0), (True, 0.0), (True, 0.5)])
def test_rmsprop_matches_reference(centered, momentum):
    alpha, eps = 0.9, 1e-6

    def update(w, g, s, lr, wd):
        g = g + wd * w
        s["v"] = alpha * s.get("v", 0) + (1 - alpha) * g * g
        if centered:
            s["ga"] = alpha * s.get("ga", 0) + (1 - alpha) * g
            avg = np.sqrt(s["v"] - s["ga"] ** 2) + eps
        else:
            avg = np.sqrt(s["v"]) + eps
        if momentum:
            s["buf"] = momentum * s.get("buf", 0) + g / avg
            return w - lr * s["buf"]
        return w - lr * g / avg

    got = _run(lambda ps: optim.RMSProp(ps, 0.01, alpha, momentum, eps, centered,
                                        weight_decay=0.05))
    want = _reference(update, (0.01, 0.01), (0.05, 0.05))
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=1e-10)


def test_adagrad_matches_reference():
    def update(w, g, s, lr, wd):
        g = g + wd * w
        s["sum"] = s.get("sum", 0.1) + g * g
        return w - lr * g / (np.sqrt(s["sum"]) + 1e-10)

    got = _run(lambda ps: optim.Adagrad(ps, accum=0.1, learning_rate=0.1, weight_decay=0.01))
    want = _reference(update, (0.1, 0.1), (0.01, 0.01))
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def test_parameter_groups_have_their_own_lr_and_decay():
    got = _run(lambda ps: optim.SGD([{"params": [ps[0]], "lr": 0.5, "weight_decay": 0.1},
                                     {"params": [ps[1]]}], learning_rate=0.01, momentum=0.9))
    want = _reference(_sgd_ref(0.9), (0.5, 0.01), (0.1, 0.0))
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def test_group_lr_reported_per_parameter():
    ps = _params()
    opt = optim.Adam([{"params": [ps[0]], "lr": [0.3, 0.2]}, {"params": [ps[1]]}],
                     learning_rate=0.01)
    assert opt.get_lr() == (0.3, 0.01)
    opt((np.zeros((3, 4)), np.zeros(4)))
    assert opt.get_lr() == (0.2, 0.01)
    assert opt.get_lr_parameter(ps[0]) == 0.2


def test_default_weight_decay_skips_beta_and_gamma():
    w = sx.Parameter(np.ones(2), name="ln.gamma")
    b = sx.Parameter(np.ones(2), name="fc.weight")
    optim.SGD([w, b], 1.0, weight_decay=0.5)((np.zeros(2), np.zeros(2)))
    np.testing.assert_allclose(w.asnumpy(), [1.0, 1.0])
    np.testing.assert_allclose(b.asnumpy(), [0.5, 0.5])


def test_per_step_and_scheduled_learning_rates():
    w = sx.Parameter(np.zeros(1), name="w")
    opt = optim.SGD([w], [1.0, 0.5])
    for _ in range(3):
        opt((np.ones(1),))
    np.testing.assert_allclose(w.asnumpy(), [-2.0])  # 1 + 0.5 + 0.5 (last value stays)
    w2 = sx.Parameter(np.zeros(1), name="w")
    opt2 = optim.SGD([w2], optim.WarmUpLR(1.0, 2))
    assert [opt2.get_lr() for _ in range(1)] == [0.0]
    for _ in range(3):
        opt2((np.ones(1),))
    np.testing.assert_allclose(w2.asnumpy(), [-1.5])  # 0 + 0.5 + 1


def test_loss_scale_divides_gradients_and_none_skips():
    w, v = sx.Parameter(np.ones(2), name="w"), sx.Parameter(np.ones(2), name="v")
    optim.SGD([w, v], 1.0, loss_scale=4.0)((np.full(2, 4.0), None))
    np.testing.assert_allclose(w.asnumpy(), [0.0, 0.0])
    np.testing.assert_allclose(v.asnumpy(), [1.0, 1.0])


def test_update_keeps_parameter_identity_and_dtype():
    w = sx.Parameter(np.ones(3, sx.bfloat16), name="w")
    ident = id(w)
    opt = optim.Adam([w], 0.1)
    opt((np.ones(3, np.float32),))
    assert id(w) == ident and w.dtype == sx.bfloat16
    assert opt._states[0]["m"].dtype == np.float32  # state kept in float32
    np.testing.assert_allclose(w.asnumpy().astype(np.float32), 0.9, rtol=1e-2)


@pytest.mark.parametrize("bad,match", [
    (lambda ps: optim.SGD(ps, 0.1)((np.zeros((3, 4)),)), "expected 2 gradients"),
    (lambda ps: optim.SGD(ps, 0.1)((np.zeros(3), np.zeros(4))), "shape"),
    (lambda ps: optim.SGD([ps[0], ps[0]], 0.1), "appears twice"),
    (lambda ps: optim.SGD([{"params": ps, "momentum": 1}], 0.1), "unsupported keys"),
    (lambda ps: optim.SGD(ps, -1.0), ">= 0"),
    (lambda ps: optim.SGD(ps, 0.1, nesterov=True), "nesterov"),
    (lambda ps: optim.SGD([], 0.1), "non-empty"),
])
def test_optimizer_errors(bad, match):
    with pytest.raises((ValueError, TypeError), match=match):
        bad(_params())


def test_clip_by_global_norm():
    gs = (np.array([3.0, 0.0]), sx.Tensor(np.array([4.0], np.float32)), None)
    clipped, norm = optim.clip_by_global_norm(gs, 2.5, return_norm=True)
    assert norm == pytest.approx(5.0)
    np.testing.assert_allclose(clipped[0], [1.5, 0.0])
    assert isinstance(clipped[1], sx.Tensor)
    np.testing.assert_allclose(clipped[1].asnumpy(), [2.0])
    assert clipped[2] is None
    same = optim.clip_by_global_norm(gs[:2], 10.0)
    assert same[0] is gs[0]  # under the limit: untouched
    with pytest.raises(ValueError, match="clip_norm"):
        optim.clip_by_global_norm(gs, 0.0)
