"""Boundary, initial and data conditions: points of the geometry and the values the
network must take there (loss ``weight * mean((u - value)^2)``)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import GeometryError
from .geometry import Geometry, TimeDomain

__all__ = ["Condition", "DirichletBC", "InitialCondition", "PointCondition"]


@dataclass
class Condition:
    """``u(points) = values`` with a loss weight; ``points`` ``(n, dim)``, ``values``
    ``(n, 1)`` (float64)."""
    name: str
    points: np.ndarray
    values: np.ndarray
    weight: float = 1.0


def _values(func, points, name) -> np.ndarray:
    values = np.asarray(func(points) if callable(func) else func, np.float64)
    values = np.broadcast_to(values.reshape(-1, 1) if values.ndim == 1 else values,
                             (len(points), 1)) if values.size in (1, len(points)) else values
    if values.shape != (len(points), 1):
        raise GeometryError("condition values do not match the points", op=name,
                            expected=f"({len(points)}, 1) or ({len(points)},)",
                            got=values.shape)
    return np.ascontiguousarray(values)


def DirichletBC(geometry: Geometry, func, n: int, method: str = "uniform", seed=None,
                weight: float = 1.0, name: str = "boundary") -> Condition:
    """``u = func(points)`` at ``n`` points of ``geometry``'s boundary (for a
    :class:`TimeDomain`, the spatial boundary at all times). ``func`` maps ``(n, dim)``
    points to ``(n,)`` or ``(n, 1)`` values, or is a constant."""
    points = geometry.sample_boundary(n, method, seed)
    return Condition(name, points, _values(func, points, name), float(weight))


def InitialCondition(domain: TimeDomain, func, n: int, method: str = "uniform", seed=None,
                     weight: float = 1.0, name: str = "initial") -> Condition:
    """``u(x, t0) = func(points)`` at ``n`` points of the slice ``t = t0``."""
    if not isinstance(domain, TimeDomain):
        raise GeometryError("an initial condition needs a time domain", op=name,
                            expected="TimeDomain(space, t0, t1)", got=repr(domain))
    points = domain.sample_initial(n, method, seed)
    return Condition(name, points, _values(func, points, name), float(weight))


def PointCondition(geometry: Geometry, points, values, weight: float = 1.0,
                   name: str = "data") -> Condition:
    """``u(points) = values`` at given points (measurements); points outside the geometry
    are refused with a :class:`GeometryError`."""
    points = geometry.as_points(points, where=f"condition {name!r}")
    return Condition(name, points, _values(values, points, name), float(weight))
