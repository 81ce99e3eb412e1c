"""odeint's RK4 and Dormand-Prince against scipy's solve_ivp, on arrays and Tensors, and the
named errors for bad tolerances, times, methods and stiff problems."""
import numpy as np
import pytest
from scipy.integrate import solve_ivp

import sporeling.expression as sx
from sporeling.science.ode import ODEError, StepBudgetError, ToleranceError, odeint


def lotka_volterra(t, y):
    return np.array([1.5 * y[0] - y[0] * y[1], -3.0 * y[1] + y[0] * y[1]])


def forced_oscillator(t, y):
    return np.array([y[1], -y[0] - 0.2 * y[1] + np.sin(2.0 * t)])


def van_der_pol(t, y):
    return np.array([y[1], (1 - y[0] ** 2) * y[1] - y[0]])


PROBLEMS = [(lotka_volterra, [10.0, 5.0], (0.0, 10.0)),
            (forced_oscillator, [1.0, 0.0], (0.0, 20.0)),
            (van_der_pol, [2.0, 0.0], (0.0, 15.0)),
            (forced_oscillator, [0.3, -1.0], (5.0, -3.0))]  # backwards in time


def _reference(f, y0, span, times):
    sol = solve_ivp(f, span, y0, t_eval=times, method="DOP853", rtol=1e-12, atol=1e-12)
    assert sol.success
    return sol.y.T


@pytest.mark.parametrize("f, y0, span", PROBLEMS, ids=lambda p: getattr(p, "__name__", ""))
def test_dopri5_agrees_with_solve_ivp_to_1e_6(f, y0, span):
    times = np.linspace(*span, 13)
    ys = odeint(f, np.array(y0), times, method="dopri5", rtol=1e-9, atol=1e-9)
    assert ys.shape == (13, 2)
    np.testing.assert_allclose(ys, _reference(f, y0, span, times), rtol=0, atol=1e-6)
    rk45 = solve_ivp(f, span, y0, t_eval=times, method="RK45", rtol=1e-9, atol=1e-9).y.T
    np.testing.assert_allclose(ys, rk45, rtol=0, atol=1e-6)  # scipy's own Dormand-Prince


@pytest.mark.parametrize("f, y0, span", PROBLEMS[:2], ids=lambda p: getattr(p, "__name__", ""))
def test_rk4_agrees_with_solve_ivp_to_1e_6(f, y0, span):
    times = np.linspace(*span, 6)
    ys = odeint(f, np.array(y0), times, method="rk4", step_size=2e-3)
    np.testing.assert_allclose(ys, _reference(f, y0, span, times), rtol=0, atol=1e-6)


def test_rk4_error_falls_as_the_fourth_power_of_the_step():
    times = np.array([0.0, 3.0])
    exact = _reference(forced_oscillator, [1.0, 0.0], (0.0, 3.0), times)[-1]
    errs = [np.abs(odeint(forced_oscillator, np.array([1.0, 0.0]), times, method="rk4",
                          step_size=h)[-1] - exact).max() for h in (0.1, 0.05)]
    assert 12 < errs[0] / errs[1] < 20  # 2**4 = 16


def test_dopri5_error_control_tracks_the_tolerance_with_scipys_step_count():
    calls = []

    def f(t, y):
        calls.append(t)
        return lotka_volterra(t, y)

    times = np.array([0.0, 10.0])
    exact = _reference(lotka_volterra, [10.0, 5.0], (0.0, 10.0), times)[-1]
    errors = []
    for tol in (1e-4, 1e-7):
        calls.clear()
        y = odeint(f, np.array([10.0, 5.0]), times, rtol=tol, atol=tol)[-1]
        errors.append(np.abs(y - exact).max())
        scipy_nfev = solve_ivp(lotka_volterra, (0, 10), [10.0, 5.0], rtol=tol, atol=tol).nfev
        assert len(calls) < 1.5 * scipy_nfev + 20
    assert errors[1] < errors[0] / 100


def test_tensors_in_tensors_out_and_gradients_through_the_solver():
    a = sx.Tensor(np.array(-0.7))
    y0 = sx.Tensor(np.array([2.0]))
    times = np.array([0.0, 1.0, 2.0])
    ys = odeint(lambda t, y: y * a, y0, times, rtol=1e-10, atol=1e-12)
    assert isinstance(ys, sx.Tensor) and ys.shape == (3, 1)
    np.testing.assert_allclose(ys.asnumpy()[:, 0], 2.0 * np.exp(-0.7 * times), rtol=1e-8)
    # d/da of y(2) = 2 exp(2a) is 4 exp(2a)
    g = sx.grad(lambda a: odeint(lambda t, y: y * a, y0, times, rtol=1e-10,
                                 atol=1e-12)[-1].sum())(a)
    np.testing.assert_allclose(g.asnumpy(), 4.0 * np.exp(-1.4), rtol=1e-6)


@pytest.mark.parametrize("name, value", [("rtol", 0.0), ("rtol", -1e-6), ("atol", 0.0),
                                          ("atol", float("nan")), ("atol", [1e-6, -1.0]),
                                          ("rtol", 1e-18)])
def test_bad_tolerances_are_named_errors(name, value):
    with pytest.raises(ToleranceError, match=rf"odeint: {name}.*expected.*got {name}=.*"
                                             r"test_ode_solvers.py"):
        odeint(lotka_volterra, np.array([1.0, 1.0]), [0.0, 1.0], **{name: value})


def test_stiff_problem_exhausting_the_step_budget_is_a_named_error():
    def robertson(t, y):  # the classic stiff chemical kinetics problem
        return np.array([-0.04 * y[0] + 1e4 * y[1] * y[2],
                         0.04 * y[0] - 1e4 * y[1] * y[2] - 3e7 * y[1] ** 2,
                         3e7 * y[1] ** 2])

    with pytest.raises(StepBudgetError, match=r"odeint\(dopri5\).*step budget.*expected to "
                                              r"reach t = 100.*after max_steps=500 steps.*"
                                              r"test_ode_solvers.py.*stiff") as info:
        odeint(robertson, np.array([1.0, 0.0, 0.0]), [0.0, 100.0], max_steps=500)
    assert info.value.got.startswith("t = ")
    with pytest.raises(StepBudgetError, match=r"rk4.*max_steps=10.*1000 steps"):
        odeint(robertson, np.array([1.0, 0.0, 0.0]), [0.0, 1.0], method="rk4",
               step_size=1e-3, max_steps=10)


@pytest.mark.parametrize("kwargs, message", [
    ({"t": [0.0, 1.0, 0.5]}, "not monotonic"), ({"t": [0.0]}, "at least 2 finite times"),
    ({"method": "euler"}, "one of dopri5, rk4"), ({"max_steps": 0}, "positive integer")])
def test_other_bad_input_is_named(kwargs, message):
    args = {"t": [0.0, 1.0], **kwargs}
    with pytest.raises(ODEError, match=message):
        odeint(lotka_volterra, np.array([1.0, 1.0]), **args)


def test_docstring_examples_run():
    from sporeling.core.testing import run_doctests
    failed, attempted = run_doctests("sporeling.science.ode")
    assert failed == 0 and attempted > 0
