"""The heat and Poisson closed forms solve their problems (finite differences)."""
import numpy as np

from sporeling.science.reference.analytic import (heat_solution, poisson_lshape_solution,
                                                  poisson_lshape_source)


def test_heat_solution_solves_heat_equation():
    rng = np.random.default_rng(0)
    x, t, h = rng.uniform(0.1, 0.9, 20), rng.uniform(0.1, 1, 20), 1e-4
    u_t = (heat_solution(x, t + h) - heat_solution(x, t - h)) / (2 * h)
    u_xx = (heat_solution(x + h, t) - 2 * heat_solution(x, t) + heat_solution(x - h, t)) / h**2
    np.testing.assert_allclose(u_t, 0.1 * u_xx, atol=1e-5)
    np.testing.assert_allclose(heat_solution(np.array([0.0, 1.0]), 0.5), 0.0, atol=1e-15)


def test_poisson_solution_solves_poisson_and_vanishes_on_the_l_boundary():
    rng = np.random.default_rng(1)
    x, y, h = rng.uniform(-1, 1, 20), rng.uniform(-1, 0, 20), 1e-4
    u = poisson_lshape_solution
    lap = (u(x + h, y) + u(x - h, y) + u(x, y + h) + u(x, y - h) - 4 * u(x, y)) / h**2
    np.testing.assert_allclose(-lap, poisson_lshape_source(x, y), rtol=1e-5, atol=1e-5)
    s = np.linspace(-1, 1, 9)
    edges = [(s, -1), (s, 1), (-1, s), (1, s), (0, s), (s, 0)]
    for ex, ey in edges:
        np.testing.assert_allclose(u(np.broadcast_to(ex, 9), np.broadcast_to(ey, 9)), 0,
                                   atol=1e-15)
