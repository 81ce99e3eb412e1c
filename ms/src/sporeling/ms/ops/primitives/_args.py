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


def axes(axis, ndim: int):
    """MindSpore's reduce axis: () or None for every axis, an int or a sequence."""
    if axis is None or axis == () or axis == []:
        return None
    if isinstance(axis, sx.Tensor):
        axis = axis.asnumpy().tolist()
    if isinstance(axis, (int, np.integer)):
        return int(axis) % max(ndim, 1)
    return tuple(int(a) % max(ndim, 1) for a in axis)


def check(ok: bool, op: str, what: str, expected, got):
    if not ok:
        raise SporelingError(f"bad {what}", op=f"ops.{op}", expected=expected, got=got)
