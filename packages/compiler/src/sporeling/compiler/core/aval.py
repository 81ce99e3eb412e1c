"""Abstract values: what abstract evaluation knows of a value (its shape and dtype)."""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["Aval", "aval_of"]


class Aval(NamedTuple):
    """A shape and a dtype, no data. Anything with ``.shape`` and ``.dtype`` works where an
    Aval is expected (arrays, Tensors, tracers)."""
    shape: tuple[int, ...]
    dtype: np.dtype

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    def __repr__(self) -> str:
        return f"{self.dtype}{list(self.shape)}"


def aval_of(value) -> Aval:
    """The Aval of an array-like value."""
    return Aval(tuple(value.shape), np.dtype(value.dtype))
