"""Closed-form solutions for the heat and Poisson problems of the PINN tests and docs."""
from __future__ import annotations

import numpy as np

__all__ = ["heat_solution", "poisson_lshape_solution", "poisson_lshape_source"]


def heat_solution(x, t, alpha: float = 0.1) -> np.ndarray:
    """``u_t = alpha u_xx`` on ``[0, 1]``, ``u(x, 0) = sin(pi x)``, ``u(0, t) = u(1, t) = 0``:
    ``u = exp(-alpha pi^2 t) sin(pi x)``."""
    x, t = np.asarray(x, np.float64), np.asarray(t, np.float64)
    return np.exp(-alpha * np.pi ** 2 * t) * np.sin(np.pi * x)


def poisson_lshape_solution(x, y) -> np.ndarray:
    """``-laplace(u) = 2 pi^2 sin(pi x) sin(pi y)`` on the L-shape ``[-1, 1]^2`` less
    ``(0, 1]^2`` with ``u = 0`` on its boundary: ``u = sin(pi x) sin(pi y)`` (it vanishes
    on every edge: x = +-1, y = +-1, x = 0, y = 0)."""
    return np.sin(np.pi * np.asarray(x, np.float64)) * np.sin(np.pi * np.asarray(y, np.float64))


def poisson_lshape_source(x, y) -> np.ndarray:
    """The right-hand side ``f`` of :func:`poisson_lshape_solution`."""
    return 2.0 * np.pi ** 2 * poisson_lshape_solution(x, y)
