"""The Cole–Hopf reference: converged quadrature, agrees with adaptive quadrature, solves
the PDE, meets its initial and boundary conditions."""
import numpy as np
import pytest
from scipy.integrate import quad

from sporeling.core import ShapeError, SporelingError
from sporeling.science.reference import NU, burgers_grid, burgers_solution


def _quad_reference(x, t, nu=NU):
    """Cole–Hopf integrals by adaptive quadrature in the original variable."""
    def log_f(e):
        return -np.cos(np.pi * (x - e)) / (2 * np.pi * nu) - e * e / (4 * nu * t)
    grid = np.linspace(-3, 3, 20001)
    shift = log_f(grid).max()
    kw = dict(limit=2000, epsabs=0, epsrel=1e-12)
    num = quad(lambda e: np.sin(np.pi * (x - e)) * np.exp(log_f(e) - shift), -3, 3, **kw)[0]
    den = quad(lambda e: np.exp(log_f(e) - shift), -3, 3, **kw)[0]
    return -num / den


@pytest.mark.parametrize("x,t", [(0.01, 1.0), (0.3, 0.5), (-0.02, 0.8), (0.5, 0.1),
                                 (0.001, 0.4)])
def test_gauss_hermite_matches_adaptive_quadrature(x, t):
    assert burgers_solution(x, t) == pytest.approx(_quad_reference(x, t), abs=1e-10)


def test_quadrature_has_converged():
    x, t, u = burgers_grid(64, 20)
    for nodes in (100, 200):
        other = burgers_solution(x[None, :], t[:, None], nodes=nodes)
        assert np.abs(other - u).max() < 1e-12


def test_initial_and_boundary_conditions():
    x, t, u = burgers_grid(101, 11)
    np.testing.assert_allclose(u[0], -np.sin(np.pi * x), atol=1e-14)
    np.testing.assert_allclose(u[:, [0, -1]], 0.0, atol=1e-12)
    np.testing.assert_allclose(u[:, ::-1], -u, atol=1e-12)  # odd in x


@pytest.mark.parametrize("x,t", [(0.5, 0.1), (0.3, 0.5), (0.7, 0.9)])
def test_solves_burgers_equation(x, t):
    h = 1e-4
    u = burgers_solution(x, t)
    u_t = (burgers_solution(x, t + h) - burgers_solution(x, t - h)) / (2 * h)
    u_x = (burgers_solution(x + h, t) - burgers_solution(x - h, t)) / (2 * h)
    u_xx = (burgers_solution(x + h, t) - 2 * u + burgers_solution(x - h, t)) / h ** 2
    assert abs(u_t + u * u_x - NU * u_xx) < 1e-5 * max(1.0, abs(u_t))


def test_shock_is_steep_at_the_end():
    # the reference resolves the shock at x = 0: slope about -152 at t = 0.5, its steepest
    h = 1e-4
    slope = (burgers_solution(h, 0.5) - burgers_solution(-h, 0.5)) / (2 * h)
    assert -160 < slope < -140


def test_bad_arguments_are_named_errors():
    with pytest.raises(SporelingError, match="t >= 0"):
        burgers_solution(0.0, -0.1)
    with pytest.raises(SporelingError, match="nu > 0"):
        burgers_solution(0.0, 0.1, nu=0.0)
    with pytest.raises(SporelingError, match="nodes"):
        burgers_solution(0.0, 0.1, nodes=1000)
    with pytest.raises(ShapeError, match="nx >= 2"):
        burgers_grid(1, 10)
