"""The viscous Burgers equation's exact solution by the Cole–Hopf transform.

For ``u_t + u u_x = nu u_xx`` on ``x`` in ``[-1, 1]`` with ``u(x, 0) = -sin(pi x)`` and
``u(+-1, t) = 0`` the Cole–Hopf transform gives (Basdevant et al., 1986)::

    u(x, t) = - int sin(pi (x - e)) f(x - e) G(e) de / int f(x - e) G(e) de,
    f(y) = exp(-cos(pi y) / (2 pi nu)),  G(e) = exp(-e^2 / (4 nu t)).

Substituting ``e = 2 sqrt(nu t) z`` turns ``G`` into ``exp(-z^2)``: both integrals are
Gauss–Hermite quadratures. ``f`` reaches ``exp(1 / (2 pi nu))`` (``e^50`` for the usual
``nu = 0.01 / pi``), so the sums are taken in log space, shifted by their largest term.
This is the independent reference the PINN is measured against: no network, no training.
"""
from __future__ import annotations

import functools

import numpy as np

from sporeling.core import ShapeError, SporelingError

__all__ = ["NU", "burgers_solution", "burgers_grid"]

NU = 0.01 / np.pi  # Raissi et al.'s viscosity


def burgers_solution(x, t, nu: float = NU, nodes: int = 300) -> np.ndarray:
    """``u(x, t)`` (float64) at points ``x``, ``t`` (arrays broadcast together).

    ``nodes`` Gauss–Hermite nodes (2 to 350: NumPy's weights overflow beyond): for
    ``nu = 0.01/pi`` 100, 200 and 300 agree to 1e-14, and adaptive ``scipy.integrate.quad``
    to 1e-14 (``tests/test_reference_burgers.py``); smaller ``nu`` needs more.
    """
    if not 2 <= int(nodes) <= 350:
        raise SporelingError("unsupported number of Gauss–Hermite nodes",
                             op="burgers_solution", expected="2 <= nodes <= 350", got=nodes)
    x, t = np.broadcast_arrays(np.asarray(x, np.float64), np.asarray(t, np.float64))
    if np.any(t < 0):
        raise SporelingError("time must be non-negative", op="burgers_solution",
                             expected="t >= 0", got=f"min t = {t.min():g}")
    if nu <= 0:
        raise SporelingError("viscosity must be positive", op="burgers_solution",
                             expected="nu > 0", got=nu)
    z, w = _hermite(int(nodes))
    shape = x.shape
    x, t = x.reshape(-1, 1), t.reshape(-1, 1)
    y = x - 2.0 * np.sqrt(nu * t) * z                 # x - e at every node, (points, nodes)
    log_terms = -np.cos(np.pi * y) / (2.0 * np.pi * nu)
    log_terms -= log_terms.max(axis=1, keepdims=True)  # e^50 would overflow the weights
    weights = w * np.exp(log_terms)
    u = -(weights * np.sin(np.pi * y)).sum(axis=1) / weights.sum(axis=1)
    return u.reshape(shape)


@functools.lru_cache(maxsize=8)
def _hermite(nodes: int):
    """Gauss–Hermite nodes and weights (NumPy computes them anew each call: O(n^2))."""
    return np.polynomial.hermite.hermgauss(nodes)


def burgers_grid(nx: int = 256, nt: int = 100, nu: float = NU):
    """An evaluation grid of Raissi et al.'s size: ``x`` (nx points in [-1, 1]), ``t`` (nt
    in [0, 1]; their 100 times stop at 0.99, these at 1.0) and ``u`` of shape ``(nt, nx)``."""
    if nx < 2 or nt < 2:
        raise ShapeError("a grid needs at least two points per axis", op="burgers_grid",
                         expected="nx >= 2 and nt >= 2", got=f"nx={nx}, nt={nt}")
    x = np.linspace(-1.0, 1.0, nx)
    t = np.linspace(0.0, 1.0, nt)
    return x, t, burgers_solution(x[None, :], t[:, None], nu)
