"""Sorting kernel: ``argsort`` (stable; ``descending`` keeps equal values in their order)."""
from __future__ import annotations

import numpy as np

from .table import define, output


@define("argsort")
def argsort(backend, x, out=None, *, axis, descending):
    """Positions (int64) that sort ``x`` along ``axis``."""
    x = np.asarray(x)
    if descending:
        # stable descending: sort the reversed axis ascending, read the result backwards,
        # and map positions of the reversed axis back (n - 1 - i)
        n = x.shape[axis]
        order = np.flip(np.argsort(np.flip(x, axis), axis=axis, kind="stable"), axis)
        order = (n - 1) - order
    else:
        order = np.argsort(x, axis=axis, kind="stable")
    result = output(backend, out, x.shape, np.dtype(np.int64))
    np.copyto(result, order, casting="unsafe")
    return result
