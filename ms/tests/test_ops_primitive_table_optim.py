"""The optimizer primitive classes (ops/primitives/optim_table.py): each updates its
Parameters in place by MindSpore's documented rule; checked against NumPy transcriptions of
those rules, and every class once with its defaults (state updated, finite)."""
import numpy as np
import pytest

import sporeling.ms as ms
from sporeling.ms import ops

from array_nn_checks import T, value

RNG = np.random.default_rng(2)
VAR = RNG.standard_normal((3, 2))
G = RNG.standard_normal((3, 2))
POS = np.abs(RNG.standard_normal((3, 2))) + 0.5


def P(a, name="p"):
    return ms.Parameter(T(np.array(a, np.float64)), name=name)


def s(v):
    return T(np.array(v, np.float64))


def test_apply_momentum_and_nesterov():
    for nesterov in (False, True):
        var, acc = P(VAR), P(POS)
        ops.ApplyMomentum(use_nesterov=nesterov)(var, acc, s(0.1), T(G), s(0.9))
        new_acc = POS * 0.9 + G
        step = 0.1 * (G + 0.9 * new_acc) if nesterov else 0.1 * new_acc
        np.testing.assert_allclose(value(acc), new_acc)
        np.testing.assert_allclose(value(var), VAR - step)


def test_adam():
    var, m, v = P(VAR), P(POS * 0.1), P(POS)
    ops.Adam()(var, m, v, s(0.9), s(0.999), s(0.01), s(0.9), s(0.999), s(1e-8), T(G))
    nm, nv = 0.9 * POS * 0.1 + 0.1 * G, 0.999 * POS + 0.001 * G * G
    lr = 0.01 * np.sqrt(1 - 0.999) / (1 - 0.9)
    np.testing.assert_allclose(value(var), VAR - lr * nm / (np.sqrt(nv) + 1e-8))
    np.testing.assert_allclose(value(m), nm)


def test_adagrad_rmsprop_ftrl_proximal():
    var, acc = P(VAR), P(POS)
    ops.ApplyAdagrad()(var, acc, s(0.1), T(G))
    np.testing.assert_allclose(value(var), VAR - 0.1 * G / np.sqrt(POS + G * G))

    var, ms_, mom = P(VAR), P(POS), P(POS * 0)
    ops.ApplyRMSProp()(var, ms_, mom, s(0.1), T(G), s(0.9), s(0.5), s(1e-6))
    new_ms = 0.9 * POS + 0.1 * G * G
    np.testing.assert_allclose(value(var), VAR - 0.1 * G / np.sqrt(new_ms + 1e-6))

    var, acc, lin = P(VAR), P(POS), P(VAR * 0)
    ops.ApplyFtrl()(var, acc, lin, T(G), s(0.1), s(0.01), s(0.02), s(-0.5))
    new_acc = POS + G * G
    new_lin = G - (new_acc ** 0.5 - POS ** 0.5) / 0.1 * VAR
    quad = new_acc ** 0.5 / 0.1 + 2 * 0.02
    expect = np.where(np.abs(new_lin) > 0.01, (np.sign(new_lin) * 0.01 - new_lin) / quad, 0)
    np.testing.assert_allclose(value(var), expect)

    var, acc = P(VAR), P(POS)
    ops.ApplyProximalAdagrad()(var, acc, s(0.1), s(0.05), s(0.01), T(G))
    prox = VAR - 0.1 * G / np.sqrt(POS + G * G)
    np.testing.assert_allclose(value(var), np.sign(prox) / (1 + 0.1 * 0.01) *
                               np.maximum(np.abs(prox) - 0.1 * 0.05, 0))


def test_sparse_rows_only():
    var, acc = P(VAR), P(POS)
    rows = np.array([2, 0], np.int32)
    ops.SparseApplyAdagrad(lr=0.1)(var, acc, T(G[:2]), T(rows))
    expect = VAR.copy()
    new = POS[rows] + G[:2] ** 2
    expect[rows] = VAR[rows] - 0.1 * G[:2] / np.sqrt(new)
    np.testing.assert_allclose(value(var), expect)
    np.testing.assert_allclose(value(acc)[1], POS[1])          # untouched row


def test_fused_sparse_adam_is_dense_adam_of_scattered_grad():
    var, m, v = P(VAR), P(POS * 0), P(POS)
    rows = np.array([1], np.int32)
    ops.FusedSparseAdam()(var, m, v, s(0.9), s(0.999), s(0.01), s(0.9), s(0.999), s(1e-8),
                          T(G[:1]), T(rows))
    full = np.zeros_like(G)
    full[1] = G[0]
    var2, m2, v2 = P(VAR), P(POS * 0), P(POS)
    ops.Adam()(var2, m2, v2, s(0.9), s(0.999), s(0.01), s(0.9), s(0.999), s(1e-8), T(full))
    np.testing.assert_allclose(value(var), value(var2))


def test_lars_update():
    w, g = VAR, G
    nw, ng = np.sum(w * w), np.sum(g * g)
    out = ops.LARSUpdate()(T(w), T(g), s(nw), s(ng), s(0.01), s(0.1))
    coeff = 0.001 * nw / (ng + 0.01 * nw + 1e-5)
    np.testing.assert_allclose(value(out), coeff * (g + 0.01 * w))


def _state(*shapes):
    return [P(RNG.uniform(0.5, 1.5, sh), f"s{i}") for i, sh in enumerate(shapes)]


SMOKE = [
    ("ApplyGradientDescent", lambda: ops.ApplyGradientDescent(), "P s G"),
    ("ApplyProximalGradientDescent", lambda: ops.ApplyProximalGradientDescent(), "P s s s G"),
    ("ApplyAdagradV2", lambda: ops.ApplyAdagradV2(1e-6), "P P s G"),
    ("ApplyAdadelta", lambda: ops.ApplyAdadelta(), "P P P s s s G"),
    ("ApplyAdaMax", lambda: ops.ApplyAdaMax(), "P P P s s s s s G"),
    ("ApplyAdagradDA", lambda: ops.ApplyAdagradDA(), "P P P G s s s i"),
    ("ApplyAdamWithAmsgrad", lambda: ops.ApplyAdamWithAmsgrad(), "P P P P s s s G"),
    ("ApplyAdamWithAmsgradV2", lambda: ops.ApplyAdamWithAmsgradV2(), "P P P P s s s s s s G"),
    ("ApplyAddSign", lambda: ops.ApplyAddSign(), "P P s s s s G"),
    ("ApplyPowerSign", lambda: ops.ApplyPowerSign(), "P P s s s s G"),
    ("ApplyCenteredRMSProp", lambda: ops.ApplyCenteredRMSProp(), "P p P P G s s s s"),
    ("ApplyKerasMomentum", lambda: ops.ApplyKerasMomentum(), "P P s G s"),
    ("SGD", lambda: ops.SGD(), "P G s P s s"),
    ("FusedWeightScaleApplyMomentum", lambda: ops.FusedWeightScaleApplyMomentum(), "s s P P s G s"),
    ("AdamWeightDecay", lambda: ops.AdamWeightDecay(), "P P P s s s s s G"),
    ("FusedCastAdamWeightDecay", lambda: ops.FusedCastAdamWeightDecay(), "P P P s s s s s G s"),
    ("FusedSparseLazyAdam", lambda: ops.FusedSparseLazyAdam(), "P P P s s s s s s R I"),
    ("FusedSparseFtrl", lambda: ops.FusedSparseFtrl(0.1, 0.0, 0.0, -0.5), "P P P R I"),
    ("FusedSparseProximalAdagrad", lambda: ops.FusedSparseProximalAdagrad(), "P P s s s R I"),
    ("SparseApplyAdadelta", lambda: ops.SparseApplyAdadelta(1e-6), "P P P s s R I"),
    ("SparseApplyAdagradV2", lambda: ops.SparseApplyAdagradV2(0.1, 1e-6), "P P R I"),
    ("SparseApplyFtrl", lambda: ops.SparseApplyFtrl(0.1, 0.0, 0.0, -0.5), "P P P R I"),
    ("SparseApplyFtrlV2", lambda: ops.SparseApplyFtrlV2(0.1, 0.0, 0.0, 0.0, -0.5), "P P P R I"),
    ("SparseApplyProximalAdagrad", lambda: ops.SparseApplyProximalAdagrad(), "P P s s s R I"),
    ("SparseApplyRMSProp", lambda: ops.SparseApplyRMSProp(0.9, 0.0, 1e-6), "P P P s R I"),
    ("FusedAdaFactor", lambda: ops.FusedAdaFactor(), "s s s s s s G P P r c P"),
    ("FusedAdaFactorWithGlobalNorm", lambda: ops.FusedAdaFactorWithGlobalNorm(),
        "s s s s s s G P P r c P s"),
]


def _inputs(spec):
    out = []
    for kind in spec.split():
        out.append({"P": lambda: _state((3, 2))[0], "p": lambda: P(np.zeros((3, 2))),
                    "s": lambda: s(0.5), "G": lambda: T(G), "i": lambda: s(2),
                    "R": lambda: T(G[:2]), "I": lambda: T(np.array([0, 2], np.int32)),
                    "r": lambda: P(np.ones(3)), "c": lambda: P(np.ones(2))}[kind]())
    return out


@pytest.mark.parametrize("name,make,spec", SMOKE, ids=[c[0] for c in SMOKE])
def test_every_optimizer_class_updates_its_state(name, make, spec):
    inputs = _inputs(spec)
    before = [value(t).copy() for t in inputs]
    out = make()(*inputs)
    first = out[0] if isinstance(out, tuple) else out
    assert np.all(np.isfinite(value(first)))
    changed = [not np.allclose(value(t), b) for t, b in zip(inputs, before)
               if isinstance(t, ms.Parameter)]
    assert any(changed)


def test_adam_no_update_param_returns_the_step():
    m, v = P(POS * 0), P(POS)
    delta = ops.AdamNoUpdateParam()(m, v, s(0.9), s(0.999), s(0.01), s(0.9), s(0.999), s(1e-8),
                                    T(G))
    var = P(VAR)
    ops.Adam()(var, P(POS * 0), P(POS), s(0.9), s(0.999), s(0.01), s(0.9), s(0.999), s(1e-8),
               T(G))
    np.testing.assert_allclose(VAR + value(delta), value(var))


def test_wrong_number_of_inputs_is_a_clear_error():
    from sporeling.core.errors import SporelingError
    with pytest.raises(SporelingError, match="ApplyMomentum"):
        ops.ApplyMomentum()(P(VAR), P(POS), s(0.1))
