"""Sorting and ranking of ``mindspore.ops`` (sort, argsort, msort, topk, median,
searchsorted, bucketize, intopk) over ``sx.ops.argsort`` (a stable sort primitive): the values
are read with ``take_along_axis``, so they are differentiable (the gradient goes back to the
position each value came from) and everything compiles in Graph mode. ``searchsorted``,
``bucketize`` and ``intopk`` count comparisons instead (O(n*m) for n boundaries, m values).
"""
from __future__ import annotations

import numpy as np

from sporeling.core.arguments import check_int

from ._util import SporelingError, float_of, one_axis, ops, result, tensor

__all__ = ["sort", "argsort", "msort", "topk", "median", "nanmedian", "searchsorted",
           "bucketize", "intopk"]


def _sort(op, x, axis, descending):
    x = tensor(x)
    if len(x.shape) == 0:
        return x, ops.cast(ops.mul(x, 0), np.int64)
    return ops.sort(x, one_axis(op, axis, len(x.shape)), descending=descending)


def _int32(indices):
    return ops.cast(indices, np.int32)


def sort(input_x, axis=-1, descending=False):
    """``(values, indices)`` of ``input_x`` sorted along ``axis`` (stable: equal elements
    keep their order); int32 indices, as MindSpore 2.10."""
    values, indices = _sort("ops.sort", input_x, axis, descending)
    return result((values, _int32(indices)))


def argsort(input, axis=-1, descending=False):
    """The indices (int32) that sort ``input`` along ``axis`` (stable)."""
    return result(_int32(_sort("ops.argsort", input, axis, descending)[1]))


def msort(input):
    """``input`` sorted along its first axis (values only)."""
    return result(_sort("ops.msort", input, 0, False)[0])


def topk(input, k, dim=None, largest=True, sorted=True):
    """``(values, indices)`` of the ``k`` largest (``largest=False``: smallest) elements
    along ``dim`` (the last axis when None), in sorted order; on ties the lower index
    comes first. Int32 indices, as MindSpore 2.10."""
    x = tensor(input)
    ax = one_axis("ops.topk", -1 if dim is None else dim, len(x.shape))
    n = x.shape[ax] if x.shape else 1
    k = check_int(k, "k", op="ops.topk")
    if not 0 <= k <= n:
        raise SporelingError("k out of range", op="ops.topk",
                             expected=f"0 <= k <= {n} (the size of dim {ax})", got=f"k={k}")
    values, indices = ops.topk(x, k, axis=ax, largest=largest)
    return result((values, _int32(indices)))


def median(input, axis=-1, keepdims=False):
    """``(values, indices)``: the median along ``axis`` -- the lower of the two middle
    elements for an even count (not their mean, unlike NumPy) -- and its index (int64)."""
    x = tensor(input)
    ax = one_axis("ops.median", axis, len(x.shape))
    values, indices = _sort("ops.median", x, ax, False)
    mid = (x.shape[ax] - 1) // 2
    index = [slice(None)] * len(x.shape)
    index[ax] = slice(mid, mid + 1) if keepdims else mid
    return result((ops.getitem(values, tuple(index)), ops.getitem(indices, tuple(index))))


def nanmedian(input, axis=-1, keepdims=False):
    """``(values, indices)``: the lower median along ``axis`` of the non-NaN elements (NaN
    sort last); NaN (index 0) where every element is NaN."""
    x = tensor(input)
    ax = one_axis("ops.nanmedian", axis, len(x.shape))
    values, indices = _sort("ops.nanmedian", x, ax, False)
    count = ops.sum(ops.cast(ops.logical_not(ops.isnan(x)), np.int64), axis=ax, keepdims=True)
    mid = ops.clip(ops.floordiv(ops.sub(count, 1), 2), 0, None)       # lower median position
    value = ops.take_along_axis(values, mid, ax)
    index = ops.take_along_axis(indices, mid, ax)
    if not keepdims:
        value, index = ops.squeeze(value, ax), ops.squeeze(index, ax)
    return result((value, index))


def searchsorted(sorted_sequence, values, *, out_int32=False, right=False, side=None,
                 sorter=None):
    """For each of ``values``, the index where it would be inserted into
    ``sorted_sequence`` (its last axis) to keep it sorted: before equal elements, or after
    them with ``right=True`` / ``side="right"``."""
    seq, vals = tensor(sorted_sequence), tensor(values)
    if sorter is not None:
        seq = ops.take_along_axis(seq, tensor(sorter), axis=-1)
    if side is not None:
        right = side == "right"
    if isinstance(vals, (int, float)):
        vals = ops.cast(np.asarray(vals), seq.dtype)
    before = ops.less_equal if right else ops.less
    s = ops.expand_dims(seq, -2)              # [..., 1, m]
    v = ops.expand_dims(vals, -1)             # [..., k, 1]
    count = ops.sum(ops.cast(before(s, v), np.int64), axis=-1)
    return result(ops.cast(count, np.int32) if out_int32 else count)


def bucketize(input, boundaries, *, right=False):
    """The bucket index of each element for the ascending ``boundaries`` (a list):
    ``boundaries[i-1] < x <= boundaries[i]``, or ``boundaries[i-1] <= x < boundaries[i]``
    with ``right=True``. Int32, like MindSpore."""
    x = tensor(input)
    edges = np.asarray(boundaries, dtype=np.float64)
    below = ops.less_equal if right else ops.less
    hits = below(np.asarray(edges, dtype=x.dtype), ops.expand_dims(x, -1))
    return result(ops.cast(ops.sum(ops.cast(hits, np.int32), axis=-1), np.int32))


def intopk(x1, x2, k):
    """Whether each target class ``x2[i]`` is among the ``k`` highest predictions of row
    ``x1[i]`` (fewer than ``k`` predictions strictly above it)."""
    scores, targets = float_of(x1), tensor(x2)
    target = ops.take_along_axis(scores, ops.expand_dims(ops.cast(targets, np.int64), -1), -1)
    above = ops.sum(ops.cast(ops.greater(scores, target), np.int32), axis=-1)
    return result(ops.less(above, int(k)))
