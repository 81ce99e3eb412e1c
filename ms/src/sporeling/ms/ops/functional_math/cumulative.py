"""Cumulative reductions of ``mindspore.ops`` (cumsum, cumprod, cummax, cummin,
logcumsumexp) and ``histc``.

Only ``cumsum`` has an ``sx`` primitive. The others reduce over a lower-triangular mask: the
input along ``axis`` is broadcast to an ``n x n`` grid whose row ``i`` keeps elements
``0..i``, so they stay differentiable and compile in Graph mode, at O(n^2) memory along the
axis.
"""
from __future__ import annotations

import numpy as np

from ._util import float_of, np_dtype, one_axis, ops, result, tensor
from .reduction import _lowest

__all__ = ["cumsum", "cumprod", "cummax", "cummin", "logcumsumexp", "histc"]


def cumsum(x, axis, dtype=None):
    """Running sum along ``axis``."""
    x = tensor(x)
    if np_dtype(dtype) is not None:
        x = ops.cast(x, np_dtype(dtype))
    return result(ops.cumsum(x, one_axis("ops.cumsum", axis, len(x.shape))))


def _grid(op: str, x, axis):
    """``x`` with ``axis`` moved last and repeated as ``(..., n, n)`` rows, and the mask
    keeping ``j <= i`` in row ``i``; also the permutation to move the axis back."""
    ax = one_axis(op, axis, len(x.shape))
    order = [d for d in range(len(x.shape)) if d != ax] + [ax]
    moved = ops.transpose(x, tuple(order)) if ax != len(x.shape) - 1 else x
    n = moved.shape[-1]
    rows = ops.broadcast_to(ops.expand_dims(moved, -2), (*moved.shape[:-1], n, n))
    mask = np.tril(np.ones((n, n), dtype=bool))
    back = tuple(int(i) for i in np.argsort(order))
    return rows, mask, back, ax


def _restore(y, back, ax, ndim):
    return y if ax == ndim - 1 else ops.transpose(y, back)


def cumprod(input, dim, dtype=None):
    """Running product along ``dim``."""
    x = tensor(input)
    if np_dtype(dtype) is not None:
        x = ops.cast(x, np_dtype(dtype))
    rows, mask, back, ax = _grid("ops.cumprod", x, dim)
    out = ops.prod(ops.where(mask, rows, np.asarray(1, x.dtype)), axis=-1)
    return result(_restore(out, back, ax, len(x.shape)))


def _cumulative_extremum(op, input, axis, largest):
    x = tensor(input)
    rows, mask, back, ax = _grid(op, x, axis)
    filled = ops.where(mask, rows, _lowest(x, highest=not largest))
    reduce, arg = (ops.max, ops.argmax) if largest else (ops.min, ops.argmin)
    values = reduce(filled, axis=-1)
    # the last index holding the running extremum: arg over the reversed row
    n = filled.shape[-1]
    last = ops.sub(np.asarray(n - 1, np.int64), arg(ops.flip(filled, axis=-1), axis=-1))
    ndim = len(x.shape)
    return result((_restore(values, back, ax, ndim), _restore(last, back, ax, ndim)))


def cummax(input, axis):
    """``(values, indices)``: the running maximum along ``axis`` and where it was taken
    (the latest position on ties, as PyTorch)."""
    return _cumulative_extremum("ops.cummax", input, axis, True)


def cummin(input, axis):
    """``(values, indices)``: the running minimum along ``axis`` (latest position on ties)."""
    return _cumulative_extremum("ops.cummin", input, axis, False)


def logcumsumexp(input, axis):
    """``log(cumsum(exp(input)))`` along ``axis``, computed stably."""
    x = float_of(input)
    rows, mask, back, ax = _grid("ops.logcumsumexp", x, axis)
    out = ops.logsumexp(ops.where(mask, rows, np.asarray(-np.inf, x.dtype)), axis=-1)
    return result(_restore(out, back, ax, len(x.shape)))


def histc(input, bins=100, min=0., max=0.):
    """Counts of ``input`` in ``bins`` equal bins over ``[min, max]`` (the data's range when
    both are 0); elements outside are ignored, ``max`` falls in the last bin. Float32."""
    x = ops.reshape(float_of(input), (-1,))
    lo, hi = float(min), float(max)
    if lo == 0 and hi == 0:
        lo, hi = ops.min(x), ops.max(x)
    width = ops.sub(hi, lo)
    width = ops.where(ops.equal(width, 0), np.asarray(1, x.dtype), width)
    inside = ops.logical_and(ops.greater_equal(x, lo), ops.less_equal(x, hi))
    index = ops.floor(ops.mul(ops.div(ops.sub(x, lo), width), float(bins)))
    index = ops.cast(ops.clip(index, 0, bins - 1), np.int64)
    hits = ops.mul(ops.one_hot(index, bins, dtype=np.float32),
                   ops.expand_dims(ops.cast(inside, np.float32), -1))
    return result(ops.sum(hits, axis=0))
