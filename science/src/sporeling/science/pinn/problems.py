"""The three PINN problems of the docs, tests, ``sporeling science burgers`` and the bench:
Burgers (Raissi et al.), the heat equation and Poisson on the L-shape, each with its
reference from :mod:`sporeling.science.reference` (no network)."""
from __future__ import annotations

import numpy as np

from ..reference import NU, burgers_grid, heat_solution, poisson_lshape_solution
from .conditions import DirichletBC, InitialCondition
from .geometry import Interval, TimeDomain, l_shape
from .network import MLP
from .solver import PINN

__all__ = ["burgers", "heat", "poisson_lshape", "relative_l2", "BURGERS_LAYERS"]

BURGERS_LAYERS = [2] + [20] * 8 + [1]  # Raissi et al.: 9 layers of 20 tanh units


def relative_l2(pred, ref) -> float:
    """``||pred - ref||_2 / ||ref||_2``."""
    pred, ref = np.ravel(pred), np.ravel(ref)
    return float(np.linalg.norm(pred - ref) / np.linalg.norm(ref))


class Problem:
    """A PINN with its reference points and values: ``error()`` is the relative L2 error."""

    def __init__(self, solver: PINN, points: np.ndarray, reference: np.ndarray):
        self.solver, self.points, self.reference = solver, points, reference

    def error(self, solver=None) -> float:
        return relative_l2(self.solver.predict(self.points), self.reference)


def burgers(n_collocation: int = 10000, n_boundary: int = 100, n_initial: int = 100,
            layers=None, mode: str = "graph", seed: int = 0, sampler: str = "lhs",
            grid=(256, 100)) -> Problem:
    """u_t + u u_x = (0.01/pi) u_xx on [-1, 1] x [0, 1], u(x, 0) = -sin(pi x),
    u(+-1, t) = 0; measured on a 256 x 100 grid (Raissi's size, t to 1.0 where theirs stops
    at 0.99) against the Cole–Hopf solution."""
    domain = TimeDomain(Interval(-1.0, 1.0), 0.0, 1.0)
    lo, hi = domain.bbox()
    net = MLP(layers or BURGERS_LAYERS, lower=lo, upper=hi, seed=seed)
    conditions = [
        InitialCondition(domain, lambda p: -np.sin(np.pi * p[:, 0]), n_initial, sampler,
                         seed + 1),
        DirichletBC(domain, 0.0, n_boundary, sampler, seed + 2),
    ]

    def residual(f):
        return f.d("t") + f.u * f.d("x") - NU * f.d2("x")

    solver = PINN(domain, net, residual, conditions, n_collocation, sampler=sampler,
                  mode=mode, seed=seed)
    x, t, u = burgers_grid(*grid)
    X, T = np.meshgrid(x, t)
    return Problem(solver, np.column_stack([X.ravel(), T.ravel()]), u.ravel())


def heat(alpha: float = 0.1, n_collocation: int = 1000, n_boundary: int = 100,
         n_initial: int = 100, layers=(2, 20, 20, 1), mode: str = "graph",
         seed: int = 0) -> Problem:
    """u_t = alpha u_xx on [0, 1] x [0, 1], u(x, 0) = sin(pi x), u(0, t) = u(1, t) = 0."""
    domain = TimeDomain(Interval(0.0, 1.0), 0.0, 1.0)
    lo, hi = domain.bbox()
    net = MLP(list(layers), lower=lo, upper=hi, seed=seed)
    conditions = [InitialCondition(domain, lambda p: np.sin(np.pi * p[:, 0]), n_initial,
                                   "lhs", seed + 1),
                  DirichletBC(domain, 0.0, n_boundary, "lhs", seed + 2)]

    def residual(f):
        return f.d("t") - alpha * f.d2("x")

    solver = PINN(domain, net, residual, conditions, n_collocation, mode=mode, seed=seed)
    x, t = np.meshgrid(np.linspace(0, 1, 41), np.linspace(0, 1, 21))
    return Problem(solver, np.column_stack([x.ravel(), t.ravel()]),
                   heat_solution(x, t, alpha).ravel())


def poisson_lshape(n_collocation: int = 1000, n_boundary: int = 200, layers=(2, 20, 20, 1),
                   mode: str = "graph", seed: int = 0, sampler: str = "sobol") -> Problem:
    """-laplace(u) = 2 pi^2 sin(pi x) sin(pi y) on the L-shape, u = 0 on its boundary."""
    domain = l_shape()
    lo, hi = domain.bbox()
    net = MLP(list(layers), lower=lo, upper=hi, seed=seed)
    conditions = [DirichletBC(domain, 0.0, n_boundary, sampler, seed + 1)]

    def residual(f):
        x, y = f["x"], f["y"]
        return f.d2("x") + f.d2("y") + 2 * np.pi ** 2 * _sin(x) * _sin(y)

    solver = PINN(domain, net, residual, conditions, n_collocation, sampler=sampler,
                  mode=mode, seed=seed)
    points = domain.sample_interior(2000, "sobol", seed + 7)
    return Problem(solver, points, poisson_lshape_solution(points[:, 0], points[:, 1]))


def _sin(x):
    from sporeling.expression import ops
    return ops.sin(np.pi * x)

