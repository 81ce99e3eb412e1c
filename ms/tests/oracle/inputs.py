"""Input arrays drawn from a case's name with NumPy alone, so MindSpore's interpreter (NumPy
1.x) and Sporeling's (NumPy 2.x) draw the same bytes: ``default_rng`` streams are stable
across NumPy versions; each draw is made in float64 and then cast."""
from __future__ import annotations

import zlib

import numpy as np

# kind -> float64 array of `shape` from `rng`: the domains the ops need
_FLOAT_KINDS = {
    "normal": lambda rng, shape: rng.standard_normal(shape),
    "pos": lambda rng, shape: np.abs(rng.standard_normal(shape)) + 0.5,
    "unit": lambda rng, shape: rng.uniform(-0.9, 0.9, shape),
    "prob": lambda rng, shape: rng.uniform(0.05, 0.95, shape),
    "gt1": lambda rng, shape: np.abs(rng.standard_normal(shape)) + 1.5,
    "small": lambda rng, shape: rng.standard_normal(shape) * 0.3,
    # well separated values: no ties for max/sort/argmax, no kinks for abs/relu near 0
    "distinct": lambda rng, shape: (rng.permutation(int(np.prod(shape))).reshape(shape)
                                    - np.prod(shape) / 2 + 0.25) / 4,
    # square matrices far from singular: 2I plus small noise
    "wellcond": lambda rng, shape: 2 * np.eye(shape[-1]) + 0.3 * rng.standard_normal(shape),
}


class Input:
    """One input of a case: ``shape``, ``dtype`` (a NumPy name) and ``kind`` (a domain of
    ``_FLOAT_KINDS``; ``int:LOW:HIGH`` integers in [LOW, HIGH); ``sign``: -1 or 1; ``bool``)."""

    def __init__(self, shape, dtype="float32", kind="normal"):
        self.shape, self.dtype, self.kind = tuple(shape), dtype, kind

    def __repr__(self):
        return f"Input({self.shape}, {self.dtype!r}, {self.kind!r})"

    @property
    def differentiable(self) -> bool:
        return np.dtype(self.dtype).kind == "f"


def case_rng(name: str) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(name.encode()))


def draw(spec: Input, rng: np.random.Generator) -> np.ndarray:
    if spec.kind == "bool":
        return rng.random(spec.shape) > 0.5
    if spec.kind == "sign":
        return np.where(rng.random(spec.shape) > 0.5, 1, -1).astype(spec.dtype)
    if spec.kind.startswith("int:"):
        low, high = (int(v) for v in spec.kind.split(":")[1:])
        return rng.integers(low, high, spec.shape).astype(spec.dtype)
    return _FLOAT_KINDS[spec.kind](rng, spec.shape).astype(spec.dtype)


def draw_all(name: str, specs) -> list:
    """The arrays of a case's inputs (lists or tuples of ``Input``: lists or tuples of
    arrays; other items are passed on as they are)."""
    rng = case_rng(name)

    def one(s):
        if isinstance(s, Input):
            return draw(s, rng)
        if isinstance(s, (list, tuple)):
            return type(s)(one(x) for x in s)
        return s
    return [one(s) for s in specs]
