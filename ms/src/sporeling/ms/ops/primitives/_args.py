"""Argument helpers of the primitive classes."""
from __future__ import annotations

import numpy as np

import sporeling.expression as sx
from sporeling.core.errors import SporelingError

ops = sx.ops


def arg(x):
    """Tensors and Python numbers pass (sx promotes numbers weakly); arrays become Tensors."""
    if isinstance(x, (sx.Tensor, bool, int, float)):
        return x
    return sx.Tensor(np.asarray(x))


def axes(axis, ndim: int, op: str = "Reduce"):
    """MindSpore's reduce axis: () or None for every axis, an int or a sequence of ints in
    ``[-ndim, ndim)`` (an axis outside is an error, never wrapped round)."""
    if axis is None or axis == () or axis == []:
        return None
    if isinstance(axis, sx.Tensor):
        axis = axis.asnumpy().tolist()
    single = isinstance(axis, (int, np.integer))
    items = [axis] if single else list(axis) if isinstance(axis, (list, tuple)) else None
    rank = max(ndim, 1)
    for a in items if items is not None else [axis]:
        check(items is not None and isinstance(a, (int, np.integer))
              and not isinstance(a, (bool, np.bool_)) and -rank <= a < rank, op, "axis",
              f"an int or a tuple of ints in [{-rank}, {rank}) for a {ndim}-d input", axis)
    return int(axis) % rank if single else tuple(int(a) % rank for a in items)


def check(ok: bool, op: str, what: str, expected, got):
    if not ok:
        raise SporelingError(f"bad {what}", op=f"ops.{op}", expected=expected, got=got)
