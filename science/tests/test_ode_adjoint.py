"""Neural ODEs with the adjoint method: gradients equal backpropagation through the solver,
and memory does not grow with the number of steps (it does with backpropagation)."""
import gc

import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.runtime import get_backend
from sporeling.science.ode import odeint, odeint_adjoint

RNG = np.random.default_rng(0)


def _net(width=8):
    sx.set_seed(0)
    return sx.nn.SequentialCell([sx.nn.Dense(2, width, activation="tanh", dtype="float64"),
                                 sx.nn.Dense(width, 2, dtype="float64")])


def _grads(solver, net, y0, times, **options):
    if solver is odeint_adjoint:
        options["params"] = net.trainable_params()

    def loss(y):
        ys = solver(lambda t, v: net(v), y, times, **options)
        return sx.ops.sum(sx.ops.square(ys)) + sx.ops.sum(ys[1] * 0.5)  # every output counts

    value, (gy0, gw) = sx.value_and_grad(loss, 0, net.trainable_params())(y0)
    return value.asnumpy(), gy0.asnumpy(), [g.asnumpy() for g in gw]


@pytest.mark.parametrize("method, options", [("dopri5", {"rtol": 1e-7, "atol": 1e-7}),
                                             ("rk4", {"step_size": 0.05})])
def test_adjoint_gradients_match_backpropagation_through_the_solver(method, options):
    net = _net()
    y0 = sx.Tensor(RNG.standard_normal((3, 2)))
    times = np.array([0.0, 0.5, 1.0])
    v_bp, gy_bp, gw_bp = _grads(odeint, net, y0, times, method=method, **options)
    v_adj, gy_adj, gw_adj = _grads(odeint_adjoint, net, y0, times, method=method, **options)
    np.testing.assert_allclose(v_adj, v_bp, rtol=1e-12)
    tol = 1e-5  # dopri5: both sweeps err by ~rtol; rk4: the adjoint sweep's own O(h^4)
    np.testing.assert_allclose(gy_adj, gy_bp, rtol=tol, atol=tol)
    assert len(gw_adj) == len(gw_bp) == 4
    for a, b in zip(gw_adj, gw_bp):
        np.testing.assert_allclose(a, b, rtol=tol, atol=tol)


def test_adjoint_with_explicit_parameters_and_a_linear_system():
    # y' = A y: dL/dA for L = sum y(1) has the closed form int_0^1 expm(A^T s) 1 y(1-s)^T ds;
    # checked against backpropagation through a fine RK4 grid instead
    a = sx.Parameter(np.array([[-0.5, 1.0], [-1.0, -0.2]]), name="a")
    y0 = sx.Tensor(np.array([1.0, 0.5]))

    def f(t, y):
        return sx.ops.matmul(a, y)

    def loss(solver, **kw):
        return lambda y: sx.ops.sum(solver(f, y, np.array([0.0, 1.0]), **kw)[-1])

    _, (gy, (ga,)) = sx.value_and_grad(loss(odeint_adjoint, params=[a], rtol=1e-10,
                                            atol=1e-10), 0, [a])(y0)
    _, (gy_ref, (ga_ref,)) = sx.value_and_grad(loss(odeint, method="rk4", step_size=0.01),
                                               0, [a])(y0)
    np.testing.assert_allclose(ga.asnumpy(), ga_ref.asnumpy(), rtol=1e-7)
    np.testing.assert_allclose(gy.asnumpy(), gy_ref.asnumpy(), rtol=1e-7)
    from scipy.linalg import expm
    np.testing.assert_allclose(gy.asnumpy(), expm(a.asnumpy()).T @ np.ones(2), rtol=1e-8)


def _pool_peak(solver, net, y0, steps):
    """The memory pool's peak above what was in use over one gradient (every Tensor lives in
    the pool, so a recorded solver's tape shows there)."""
    pool = get_backend().pool
    gc.collect()
    pool.reset_peak()
    base = pool.stats().in_use
    _grads(solver, net, y0, np.array([0.0, 1.0]), method="rk4", step_size=1.0 / steps)
    return pool.stats().peak - base


def test_adjoint_memory_is_constant_in_the_number_of_steps():
    net = _net(width=16)
    y0 = sx.Tensor(RNG.standard_normal((16, 2)))
    adjoint = [_pool_peak(odeint_adjoint, net, y0, n) for n in (6, 24)]
    backprop = [_pool_peak(odeint, net, y0, n) for n in (6, 24)]
    assert backprop[1] > 3 * backprop[0]  # the measurement sees the tape grow with the steps
    assert adjoint[1] == adjoint[0] < backprop[0]  # the adjoint's peak does not move

def test_a_plain_function_must_name_its_parameters():
    from sporeling.science.ode import ODEError
    with pytest.raises(ODEError, match=r"odeint_adjoint.*expected func a Cell, or params="):
        odeint_adjoint(lambda t, y: y, sx.Tensor(np.ones(2)), [0.0, 1.0])
