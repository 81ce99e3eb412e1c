"""Input derivatives through autodiff: exact for closed forms (first, second, mixed), the
same in PyNative and Graph mode, and named errors for derivatives that cannot be taken."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.expression import ops
from sporeling.science.pinn import (MLP, PINN, DerivativePlan, DirichletBC, Interval,
                                    ResidualError, TimeDomain, evaluate_fields,
                                    plan_derivatives)

NAMES = ("x", "t")


def closed_form(X):
    """u = sin(2x) exp(t/2) + x t^2, columns (x, t)."""
    x, t = X[:, 0:1], X[:, 1:2]
    return ops.sin(x * 2.0) * ops.exp(t * 0.5) + x * t * t


def exact(p):
    x, t = p[:, :1], p[:, 1:]
    s, c, e = np.sin(2 * x), np.cos(2 * x), np.exp(t / 2)
    return dict(u=s * e + x * t * t, x=2 * c * e + t * t, t=0.5 * s * e + 2 * x * t,
                xx=-4 * s * e, tt=0.25 * s * e + 2 * x, xt=c * e + 2 * t)


@pytest.fixture
def points():
    return np.random.default_rng(0).uniform(-1, 1, (16, 2))


def test_first_second_and_mixed_derivatives_are_exact(points):
    f = evaluate_fields(closed_form, NAMES, sx.Tensor(points), DerivativePlan(True, (0, 1)))
    ref = exact(points)
    np.testing.assert_allclose(f.u.asnumpy(), ref["u"], rtol=1e-12)
    np.testing.assert_allclose(f.d("x").asnumpy(), ref["x"], rtol=1e-12)
    np.testing.assert_allclose(f.d("t").asnumpy(), ref["t"], rtol=1e-12)
    np.testing.assert_allclose(f.d2("x").asnumpy(), ref["xx"], rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(f.d2("t").asnumpy(), ref["tt"], rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(f.d2("x", "t").asnumpy(), ref["xt"], rtol=1e-12)
    np.testing.assert_allclose(f.d2("t", "x").asnumpy(), ref["xt"], rtol=1e-12)
    np.testing.assert_array_equal(f["t"].asnumpy(), points[:, 1:])


def test_plan_reads_only_what_the_residual_asks(points):
    plan = plan_derivatives(lambda f: f.d("t") + f.u * f.d("x") - 0.1 * f.d2("x"),
                            closed_form, NAMES, points)
    assert plan.first and plan.second == (0,)
    plan = plan_derivatives(lambda f: f.u * f.u, closed_form, NAMES, points)
    assert not plan.first and plan.second == ()
    f = evaluate_fields(closed_form, NAMES, sx.Tensor(points), DerivativePlan(True, (0,)))
    np.testing.assert_allclose(f.d2("x", "t").asnumpy(), exact(points)["xt"], rtol=1e-12)


def test_residual_by_an_input_the_network_does_not_read(points):
    def only_x(X):  # u(x): nothing depends on t
        return ops.sin(X[:, 0:1] * 3.0)

    with pytest.raises(ResidualError) as info:
        plan_derivatives(lambda f: f.d("t") - f.d2("x"), only_x, NAMES, points)
    msg = str(info.value)
    assert "differentiates u by 't' (input column 1), but u does not depend on it" in msg
    assert "d/dt u = 0 at all 16 check points" in msg and "the residual function" in msg
    with pytest.raises(ResidualError, match="'t'"):
        plan_derivatives(lambda f: f.d2("t"), only_x, NAMES, points)


def test_residual_by_an_unknown_input(points):
    with pytest.raises(ResidualError, match=r"expected x \| t, got 'y'"):
        plan_derivatives(lambda f: f.d("y"), closed_form, NAMES, points)


def test_residual_must_give_one_value_per_point(points):
    with pytest.raises(ResidualError, match=r"one value per point; expected a Tensor of "
                                            r"shape \(16, 1\)"):
        plan_derivatives(lambda f: f.d("x").sum(), closed_form, NAMES, points)


def _burgers_solver(mode):
    domain = TimeDomain(Interval(-1, 1), 0, 1)
    lo, hi = domain.bbox()
    net = MLP([2, 8, 8, 1], lower=lo, upper=hi, seed=3)
    return PINN(domain, net, lambda f: f.d("t") + f.u * f.d("x") - 0.01 * f.d2("x"),
                [DirichletBC(domain, 0.0, 8, seed=1)], 32, mode=mode, seed=2)


def test_weight_gradients_match_finite_differences_through_second_derivatives():
    s = _burgers_solver("pynative")
    (loss, _), grads = s.loss_and_grads()
    w = s.net.get_flat()
    direction = np.random.default_rng(0).standard_normal(w.size)
    eps = 1e-6
    s.net.set_flat(w + eps * direction)
    plus = float(s.loss_and_grads()[0][0].asnumpy())
    s.net.set_flat(w - eps * direction)
    minus = float(s.loss_and_grads()[0][0].asnumpy())
    s.net.set_flat(w)
    analytic = np.concatenate([g.asnumpy().ravel() for g in grads]) @ direction
    assert (plus - minus) / (2 * eps) == pytest.approx(analytic, rel=1e-6)


def test_graph_mode_equals_pynative():
    a, b = _burgers_solver("pynative"), _burgers_solver("graph")
    (la, ta), ga = a.loss_and_grads()
    (lb, tb), gb = b.loss_and_grads()
    assert float(lb.asnumpy()) == pytest.approx(float(la.asnumpy()), rel=1e-12)
    for x, y in zip(ga, gb):
        np.testing.assert_allclose(y.asnumpy(), x.asnumpy(), rtol=1e-10, atol=1e-14)
    assert b._steps["grad"].compile_count == 1
    # Adam steps: one compiled graph, the same trajectory as PyNative
    sa, sb = a.adam_step_fn(1e-2), b.adam_step_fn(1e-2)
    for _ in range(3):
        va, vb = sa(), sb()
    assert float(vb[0].asnumpy()) == pytest.approx(float(va[0].asnumpy()), rel=1e-10)
    np.testing.assert_allclose(b.net.get_flat(), a.net.get_flat(), rtol=1e-9, atol=1e-12)
    assert b._steps["adam"].compile_count == 1
