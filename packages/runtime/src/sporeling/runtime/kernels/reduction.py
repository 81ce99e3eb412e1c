"""Reduction kernels."""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from .table import define, normalize_axes, output


@lru_cache(maxsize=None)
def _sum_dtype(dtype: np.dtype) -> np.dtype:
    # NumPy widens small ints and bool to the platform int when summing
    return np.zeros(1, dtype).sum().dtype


def reduced_shape(shape: tuple[int, ...], axes: tuple[int, ...], keepdims: bool):
    return tuple(1 if i in axes else n for i, n in enumerate(shape)
                 if keepdims or i not in axes)


@define("sum")
def sum_(backend, x, out=None, *, axis=None, keepdims=False):
    """Sum over ``axis`` (None: all; an int; a tuple), optionally keeping the axes as 1."""
    x = np.asarray(x)
    axes = normalize_axes("sum", axis, x.ndim)
    shape = reduced_shape(x.shape, axes, keepdims)
    return np.sum(x, axis=axes, keepdims=keepdims,
                  out=output(backend, out, shape, _sum_dtype(x.dtype)))
