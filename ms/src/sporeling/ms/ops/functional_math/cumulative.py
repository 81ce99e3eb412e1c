"""Cumulative reductions of ``mindspore.ops`` (cumsum, cumprod, cummax, cummin,
logcumsumexp) and ``histc``.

Only ``cumsum`` has an ``sx`` primitive; the others are prefix scans by doubling
(Hillis-Steele): after step ``k`` every position holds the combination of the ``2**k``
elements ending there, so ``ceil(log2 n)`` element-wise steps over shifted copies finish the
job -- differentiable, Graph-mode ready, O(n log n) work and O(n) memory.
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


def _shifted(x, ax, step, fill):
    """``x`` moved ``step`` places forward along ``ax``, the first ``step`` filled."""
    n = x.shape[ax]
    head_shape = list(x.shape)
    head_shape[ax] = step
    index = [slice(None)] * len(x.shape)
    index[ax] = slice(0, n - step)
    return ops.concat([np.full(head_shape, fill, np.dtype(x.dtype)),
                       ops.getitem(x, tuple(index))], axis=ax)


def _prefix_scan(op, x, axis, combine, fills):
    """Inclusive scan along ``axis`` of the tuple of same-shape tensors ``x`` with the
    associative ``combine(earlier, later)``; ``fills`` are the identities."""
    ax = one_axis(op, axis, len(x[0].shape))
    n = x[0].shape[ax]
    step = 1
    while step < n:
        earlier = tuple(_shifted(v, ax, step, f) for v, f in zip(x, fills))
        x = combine(earlier, x)
        step *= 2
    return x


def cumprod(input, dim, dtype=None):
    """Running product along ``dim``."""
    x = tensor(input)
    if np_dtype(dtype) is not None:
        x = ops.cast(x, np_dtype(dtype))
    if not x.shape:
        return result(x)
    (out,) = _prefix_scan("ops.cumprod", (x,), dim, lambda a, b: (ops.mul(a[0], b[0]),), (1,))
    return result(out)


def _cumulative_extremum(op, input, axis, largest):
    x = tensor(input)
    ax = one_axis(op, axis, len(x.shape))
    shape = [1] * len(x.shape)
    shape[ax] = x.shape[ax]
    positions = np.broadcast_to(np.arange(x.shape[ax], dtype=np.int64).reshape(shape),
                                tuple(x.shape))
    beats = ops.greater if largest else ops.less

    def combine(earlier, later):
        # the later block wins ties: the latest position of the extremum, as PyTorch
        take = beats(earlier[0], later[0])
        return (ops.where(take, earlier[0], later[0]), ops.where(take, earlier[1], later[1]))
    values, indices = _prefix_scan(op, (x, positions), ax, combine,
                                   (_lowest(x, highest=not largest), 0))
    return result((values, indices))


def cummax(input, axis):
    """``(values, indices)``: the running maximum along ``axis`` and where it was taken
    (the latest position on ties, as PyTorch)."""
    return _cumulative_extremum("ops.cummax", input, axis, True)


def cummin(input, axis):
    """``(values, indices)``: the running minimum along ``axis`` (latest position on ties);
    int32 indices (``cummax``'s are int64), as MindSpore 2.10."""
    values, indices = _cumulative_extremum("ops.cummin", input, axis, False)
    return result((values, ops.cast(indices, np.int32)))


def _logaddexp(a, b):
    big = ops.maximum(a, b)
    gap = ops.neg(ops.abs(ops.sub(a, b)))
    # -inf - -inf is NaN: where both are -inf the sum is -inf
    gap = ops.where(ops.isinf(big), np.asarray(0, big.dtype), gap)
    return ops.add(big, ops.log1p(ops.exp(gap)))


def logcumsumexp(input, axis):
    """``log(cumsum(exp(input)))`` along ``axis``, computed stably."""
    x = float_of(input)
    (out,) = _prefix_scan("ops.logcumsumexp", (x,), axis,
                          lambda a, b: (_logaddexp(a[0], b[0]),), (-np.inf,))
    return result(out)


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
