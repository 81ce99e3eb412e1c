"""Geometries of PINN problems: where the PDE holds and where its boundary lies.

Each geometry names its coordinates (``names``: the inputs a residual differentiates by),
tells points inside from outside (``inside``, ``on_boundary``), samples its interior and
its boundary from any sampler of :mod:`.sampling`, and refuses points outside it with a
:class:`~.errors.GeometryError` naming the geometry, how many points and the first one.
``TimeDomain(space, t0, t1)`` is time x space: its boundary is the spatial boundary at all
times, and ``sample_initial`` draws the slice ``t = t0``.
"""
from __future__ import annotations

import numpy as np

from .errors import GeometryError
from .sampling import sample_unit

__all__ = ["Geometry", "Interval", "Rectangle", "Disk", "Polygon", "TimeDomain", "l_shape"]

_TOL = 1e-9  # how far off a point may be and still count as on the boundary / inside


class Geometry:
    """Base of every geometry: ``dim``, ``names``, ``bbox`` and the samplers."""
    names: tuple[str, ...]

    @property
    def dim(self) -> int:
        return len(self.names)

    def inside(self, points) -> np.ndarray:
        """Whether each point lies in the closed geometry (boundary included)."""
        raise NotImplementedError

    def on_boundary(self, points, tol: float = _TOL) -> np.ndarray:
        raise NotImplementedError

    def sample_interior(self, n: int, method: str = "uniform", seed=None) -> np.ndarray:
        raise NotImplementedError

    def sample_boundary(self, n: int, method: str = "uniform", seed=None) -> np.ndarray:
        raise NotImplementedError

    def as_points(self, points, where: str = "points") -> np.ndarray:
        """``points`` as float64 ``(n, dim)``, after checking their shape and that every one
        lies in the geometry; ``where`` names them in the error."""
        arr = np.asarray(points, np.float64)
        if arr.ndim == 1 and self.dim == 1:
            arr = arr[:, None]
        if arr.ndim != 2 or arr.shape[1] != self.dim:
            raise GeometryError("points have the wrong shape", op=repr(self),
                                expected=f"(n, {self.dim}) with columns {self.names}",
                                got=arr.shape, where=where)
        bad = ~self.inside(arr)
        if bad.any():
            first = int(np.flatnonzero(bad)[0])
            raise GeometryError(f"{int(bad.sum())} of {len(arr)} points lie outside the "
                                f"geometry", op=repr(self), expected=f"points in {self!r}",
                                got=f"point {first} = {arr[first].tolist()}", where=where)
        return arr

    def bbox(self) -> tuple[np.ndarray, np.ndarray]:
        raise NotImplementedError


class Interval(Geometry):
    """``[a, b]``; its boundary is the two end points."""

    def __init__(self, a: float, b: float, name: str = "x"):
        if not a < b:
            raise GeometryError("empty interval", op="Interval", expected="a < b",
                                got=f"a={a}, b={b}")
        self.a, self.b, self.names = float(a), float(b), (name,)

    def __repr__(self):
        return f"Interval({self.a:g}, {self.b:g})"

    def bbox(self):
        return np.array([self.a]), np.array([self.b])

    def inside(self, points):
        x = np.asarray(points, np.float64).reshape(-1, 1)[:, 0]
        return (x >= self.a - _TOL) & (x <= self.b + _TOL)

    def on_boundary(self, points, tol=_TOL):
        x = np.asarray(points, np.float64).reshape(-1, 1)[:, 0]
        return (np.abs(x - self.a) <= tol) | (np.abs(x - self.b) <= tol)

    def sample_interior(self, n, method="uniform", seed=None):
        return self.a + (self.b - self.a) * sample_unit(n, 1, method, seed)

    def sample_boundary(self, n, method="uniform", seed=None):
        # the end points, alternating (the sampler has nothing to spread)
        return np.where(np.arange(n)[:, None] % 2 == 0, self.a, self.b).astype(np.float64)


class Polygon(Geometry):
    """A simple polygon given by its vertices in order (either orientation). Inside by the
    even-odd rule; boundary points spread by arc length over the edges; interior points by
    rejection from the bounding box."""

    def __init__(self, vertices, names=("x", "y")):
        v = np.asarray(vertices, np.float64)
        if v.ndim != 2 or v.shape[1] != 2 or len(v) < 3:
            raise GeometryError("a polygon needs at least three 2-D vertices", op="Polygon",
                                expected="(k >= 3, 2) array", got=v.shape)
        self.vertices, self.names = v, tuple(names)
        self._edges = np.roll(v, -1, axis=0) - v
        self._lengths = np.linalg.norm(self._edges, axis=1)
        if np.any(self._lengths == 0):
            raise GeometryError("repeated vertex", op="Polygon", expected="distinct "
                                "consecutive vertices", got=v.tolist())
        x, y = v[:, 0], v[:, 1]
        self.area = 0.5 * abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))

    def __repr__(self):
        return f"Polygon({self.vertices.tolist()})"

    def bbox(self):
        return self.vertices.min(axis=0), self.vertices.max(axis=0)

    def _edge_distance(self, p):
        # distance of each point to the nearest edge, (n,)
        d = p[:, None, :] - self.vertices[None, :, :]
        s = np.clip((d * self._edges).sum(-1) / self._lengths ** 2, 0.0, 1.0)
        nearest = self.vertices + s[..., None] * self._edges
        return np.linalg.norm(p[:, None, :] - nearest, axis=-1).min(axis=1)

    def on_boundary(self, points, tol=_TOL):
        return self._edge_distance(np.asarray(points, np.float64).reshape(-1, 2)) <= tol

    def inside(self, points):
        p = np.asarray(points, np.float64).reshape(-1, 2)
        x, y = p[:, :1], p[:, 1:]
        x0, y0 = self.vertices[:, 0], self.vertices[:, 1]
        x1, y1 = np.roll(x0, -1), np.roll(y0, -1)
        crosses = (y0 > y) != (y1 > y)
        with np.errstate(divide="ignore", invalid="ignore"):
            at = x0 + (y - y0) * (x1 - x0) / (y1 - y0)
        odd = (crosses & (x < at)).sum(axis=1) % 2 == 1
        return odd | self.on_boundary(p)

    def sample_interior(self, n, method="uniform", seed=None):
        lo, hi = self.bbox()
        rng = np.random.default_rng(seed)
        out, need = [], n
        fill = self.area / float(np.prod(hi - lo))
        while need > 0:  # rejection: draw a batch sized for the fill ratio, keep the inside
            draw = int(need / fill * 1.2) + 8
            p = lo + (hi - lo) * sample_unit(draw, 2, method, rng.integers(2 ** 32))
            p = p[self.inside(p) & ~self.on_boundary(p)]
            out.append(p[:need])
            need -= len(out[-1])
        return np.concatenate(out)

    def sample_boundary(self, n, method="uniform", seed=None):
        s = sample_unit(n, 1, method, seed)[:, 0] * self._lengths.sum()
        ends = np.cumsum(self._lengths)
        k = np.minimum(np.searchsorted(ends, s, side="right"), len(ends) - 1)
        frac = (s - (ends[k] - self._lengths[k])) / self._lengths[k]
        return self.vertices[k] + frac[:, None] * self._edges[k]


class Rectangle(Polygon):
    """``[x0, x1] x [y0, y1]`` (a polygon whose interior sampling maps the unit square:
    no rejection)."""

    def __init__(self, lower, upper, names=("x", "y")):
        (x0, y0), (x1, y1) = lower, upper
        if not (x0 < x1 and y0 < y1):
            raise GeometryError("empty rectangle", op="Rectangle",
                                expected="lower < upper in both coordinates",
                                got=f"lower={tuple(lower)}, upper={tuple(upper)}")
        super().__init__([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], names)
        self.lower, self.upper = np.array(lower, float), np.array(upper, float)

    def __repr__(self):
        return f"Rectangle({self.lower.tolist()}, {self.upper.tolist()})"

    def sample_interior(self, n, method="uniform", seed=None):
        return self.lower + (self.upper - self.lower) * sample_unit(n, 2, method, seed)


class Disk(Geometry):
    """The closed disk of ``radius`` about ``center``; interior points map the unit square
    by ``r = R sqrt(u), theta = 2 pi v`` (area-uniform), boundary points by the angle."""

    def __init__(self, center, radius: float, names=("x", "y")):
        if not radius > 0:
            raise GeometryError("radius must be positive", op="Disk", expected="radius > 0",
                                got=radius)
        self.center, self.radius, self.names = np.array(center, float), float(radius), \
            tuple(names)

    def __repr__(self):
        return f"Disk({self.center.tolist()}, {self.radius:g})"

    def bbox(self):
        return self.center - self.radius, self.center + self.radius

    def _r(self, points):
        return np.linalg.norm(np.asarray(points, np.float64).reshape(-1, 2) - self.center,
                              axis=1)

    def inside(self, points):
        return self._r(points) <= self.radius + _TOL

    def on_boundary(self, points, tol=_TOL):
        return np.abs(self._r(points) - self.radius) <= tol

    def _polar(self, r, theta):
        return self.center + np.stack([r * np.cos(theta), r * np.sin(theta)], axis=1)

    def sample_interior(self, n, method="uniform", seed=None):
        u = sample_unit(n, 2, method, seed)
        return self._polar(self.radius * np.sqrt(u[:, 0]), 2 * np.pi * u[:, 1])

    def sample_boundary(self, n, method="uniform", seed=None):
        return self._polar(np.full(n, self.radius),
                           2 * np.pi * sample_unit(n, 1, method, seed)[:, 0])


class TimeDomain(Geometry):
    """``space x [t0, t1]``: coordinates ``space.names + (time_name,)`` (time last)."""

    def __init__(self, space: Geometry, t0: float, t1: float, time_name: str = "t"):
        if not t0 < t1:
            raise GeometryError("empty time interval", op="TimeDomain", expected="t0 < t1",
                                got=f"t0={t0}, t1={t1}")
        self.space, self.t0, self.t1 = space, float(t0), float(t1)
        self.names = tuple(space.names) + (time_name,)

    def __repr__(self):
        return f"TimeDomain({self.space!r}, {self.t0:g}, {self.t1:g})"

    def bbox(self):
        lo, hi = self.space.bbox()
        return np.append(lo, self.t0), np.append(hi, self.t1)

    def inside(self, points):
        p = np.asarray(points, np.float64).reshape(-1, self.dim)
        t = p[:, -1]
        return self.space.inside(p[:, :-1]) & (t >= self.t0 - _TOL) & (t <= self.t1 + _TOL)

    def on_boundary(self, points, tol=_TOL):
        """On the spatial boundary at any time (the initial slice is not boundary here)."""
        p = np.asarray(points, np.float64).reshape(-1, self.dim)
        return self.space.on_boundary(p[:, :-1], tol)

    def _times(self, n, method, seed):
        return self.t0 + (self.t1 - self.t0) * sample_unit(n, 1, method, seed)

    def sample_interior(self, n, method="uniform", seed=None):
        rng = np.random.default_rng(seed)
        if isinstance(self.space, (Interval, Rectangle, Disk)):  # one joint draw: the
            # sampler's stratification then holds in space-time, not per factor
            u = sample_unit(n, self.dim, method, rng.integers(2 ** 32))
            lo, hi = self.bbox()
            if isinstance(self.space, Disk):
                x = self.space._polar(self.space.radius * np.sqrt(u[:, 0]), 2 * np.pi * u[:, 1])
            else:
                x = lo[:-1] + (hi[:-1] - lo[:-1]) * u[:, :-1]
            return np.column_stack([x, self.t0 + (self.t1 - self.t0) * u[:, -1]])
        x = self.space.sample_interior(n, method, rng.integers(2 ** 32))
        return np.column_stack([x, self._times(n, method, rng.integers(2 ** 32))])

    def sample_boundary(self, n, method="uniform", seed=None):
        rng = np.random.default_rng(seed)
        x = self.space.sample_boundary(n, method, rng.integers(2 ** 32))
        return np.column_stack([x, self._times(n, method, rng.integers(2 ** 32))])

    def sample_initial(self, n, method="uniform", seed=None):
        """Points of the slice ``t = t0`` (spatial interior)."""
        x = self.space.sample_interior(n, method, seed)
        return np.column_stack([x, np.full(n, self.t0)])


def l_shape() -> Polygon:
    """``[-1, 1]^2`` less ``(0, 1]^2`` (the L-shaped domain of the Poisson example)."""
    return Polygon([(-1, -1), (1, -1), (1, 0), (0, 0), (0, 1), (-1, 1)])
