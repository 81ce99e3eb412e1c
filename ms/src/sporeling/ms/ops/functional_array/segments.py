"""Counting, segments and uniqueness of MindSpore r2.3 ``mindspore.ops`` (array
operations). Segment reductions are masks over sx ops (Graph mode and gradients included);
functions whose result shape depends on the values (``nonzero``, ``unique``,
``masked_select``...) are eager only; ``masked_select`` keeps its gradient."""
from __future__ import annotations

import numpy as np

from sporeling.ms.common import eager_only

from ._common import SporelingError, canonical_axis, full_like, ops, tensor, to_numpy, value_of
from .indexing import _ints, _zeros_like

__all__ = ["masked_select", "nonzero", "argwhere", "bincount", "count_nonzero",
           "population_count", "sparse_segment_mean", "unique", "unique_consecutive",
           "unique_with_pad", "unsorted_segment_sum", "unsorted_segment_max",
           "unsorted_segment_min", "unsorted_segment_prod"]


@eager_only("ops.masked_select", differentiable=("input",))
def masked_select(input, mask):  # noqa: A002
    """The elements where ``mask`` (broadcast) holds, as a 1-d tensor. Differentiable in
    ``input`` (a ``gather`` at the mask's positions: the gradient is scattered back, summed
    over broadcast copies); PyNative only (the result's length depends on the mask)."""
    x, m = tensor(input), tensor(mask)
    shape = np.broadcast_shapes(tuple(x.shape), tuple(m.shape))
    flat_mask = np.broadcast_to(value_of(m), shape).reshape(-1)
    flat = ops.reshape(ops.broadcast_to(x, shape), (-1,))
    return ops.gather(flat, tensor(np.flatnonzero(flat_mask)), axis=0)


@eager_only("ops.nonzero")
def nonzero(input, as_tuple=False):  # noqa: A002
    """Positions of the nonzero elements: (K, ndim) int64, or a tuple of K-vectors."""
    where = np.nonzero(value_of(input))
    if as_tuple:
        return tuple(tensor(w.astype(np.int64)) for w in where)
    return tensor(np.stack(where, axis=-1).astype(np.int64))


@eager_only("ops.argwhere")
def argwhere(input):  # noqa: A002
    """(K, ndim) positions of the nonzero elements."""
    return tensor(np.argwhere(value_of(input)).astype(np.int64))


@eager_only("ops.bincount")
def bincount(input, weights=None, minlength=0):  # noqa: A002
    """Counts (or summed ``weights``) of each non-negative integer value."""
    values = value_of(input).astype(np.int64)
    if values.size and values.min() < 0:
        raise SporelingError("bincount takes non-negative values", op="ops.bincount",
                             expected="values >= 0", got=int(values.min()))
    w = None if weights is None else value_of(weights)
    return tensor(np.bincount(values, w, int(minlength)))


def count_nonzero(x, axis=(), keep_dims=False, dtype=None):
    """The number of nonzero elements over ``axis`` (all when empty)."""
    t = tensor(x)
    nz = ops.cast(ops.not_equal(t, 0), np.int64)
    axes = None if axis in ((), None, []) else ((axis,) if isinstance(axis, int) else tuple(axis))
    out = ops.sum(nz, axis=axes, keepdims=bool(keep_dims))
    return ops.cast(out, to_numpy(dtype) if dtype is not None else np.int32)


def population_count(input_x):
    """The number of set bits of each (integer) element (two's complement), as uint8."""
    x = tensor(input_x)
    if x.dtype.kind not in "iu":
        raise SporelingError("population_count takes integers", op="ops.population_count",
                             expected="an int or uint tensor", got=str(x.dtype))
    bits = 8 * x.dtype.itemsize
    v = ops.cast(x, np.int64)
    if x.dtype.kind == "i" and bits < 64:  # negative values as their unsigned pattern
        v = ops.where(v < 0, v + (1 << bits), v)
    total = None
    for b in range(min(bits, 63)):
        bit = ops.mod(ops.floordiv(v, 1 << b), 2)
        total = bit if total is None else total + bit
    if bits == 64:  # the sign bit of int64
        total = total + ops.cast(v < 0, np.int64)
    return ops.cast(total, np.uint8)


@eager_only("ops.sparse_segment_mean")
def sparse_segment_mean(x, indices, segment_ids):
    """Mean of the rows ``x[indices]`` per (sorted) ``segment_ids``."""
    ids = value_of(segment_ids).astype(np.int64)
    rows = ops.gather(tensor(x), _ints(indices), axis=0)
    n = int(ids.max()) + 1 if ids.size else 0
    total = unsorted_segment_sum(rows, tensor(ids), n)
    counts = np.maximum(np.bincount(ids, minlength=n), 1).astype(value_of(x).dtype)
    return total / tensor(counts.reshape((-1,) + (1,) * (rows.ndim - 1)))


def _segment_mask(op, x, segment_ids, num_segments):
    ids = _ints(segment_ids)
    k = ids.ndim
    n = int(num_segments)
    seg = ops.reshape(tensor(np.arange(n, dtype=np.int64)), (n,) + (1,) * k)
    mask = ops.equal(ops.expand_dims(ids, 0), seg)                # (n, *ids)
    mask = ops.reshape(mask, tuple(mask.shape) + (1,) * (x.ndim - k))
    return mask, ops.expand_dims(x, 0), tuple(range(1, k + 1))


def unsorted_segment_sum(input_x, segment_ids, num_segments):
    """out[s] = sum of input_x[i] with segment_ids[i] == s (ids outside [0, n) dropped)."""
    x = tensor(input_x)
    mask, xs, axes = _segment_mask("ops.unsorted_segment_sum", x, segment_ids, num_segments)
    return ops.sum(ops.where(mask, xs, _zeros_like(xs)), axis=axes)


def unsorted_segment_prod(input_x, segment_ids, num_segments):
    x = tensor(input_x)
    mask, xs, axes = _segment_mask("ops.unsorted_segment_prod", x, segment_ids, num_segments)
    return ops.prod(ops.where(mask, xs, full_like(xs, 1)), axis=axes)


def _segment_extreme(op, input_x, segment_ids, num_segments, pick):
    x = tensor(input_x)
    mask, xs, axes = _segment_mask(op, x, segment_ids, num_segments)
    info = np.finfo(x.dtype) if x.dtype.kind == "f" else np.iinfo(x.dtype)
    fill = info.min if pick is ops.max else info.max
    out = pick(ops.where(mask, xs, full_like(xs, fill)),
               axis=axes)
    return out  # empty segments keep the dtype's lowest (max) / highest (min) value


def unsorted_segment_max(input_x, segment_ids, num_segments):
    """out[s] = max of input_x[i] with segment_ids[i] == s (empty: the dtype's lowest)."""
    return _segment_extreme("ops.unsorted_segment_max", input_x, segment_ids, num_segments,
                            ops.max)


def unsorted_segment_min(input_x, segment_ids, num_segments):
    """out[s] = min of input_x[i] with segment_ids[i] == s (empty: the dtype's highest)."""
    return _segment_extreme("ops.unsorted_segment_min", input_x, segment_ids, num_segments,
                            ops.min)


def _first_appearance(flat):
    """Distinct values in order of first appearance and each element's value position."""
    _, first, inverse = np.unique(flat, return_index=True, return_inverse=True)
    order = np.argsort(first)
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    return flat[np.sort(first)], rank[inverse.reshape(-1)]


@eager_only("ops.unique")
def unique(input):  # noqa: A002
    """``(values, idx)``: the distinct values and, per element, its value's position. Note:
    MindSpore 2.x keeps the order of first appearance (PyTorch's ``unique`` sorts). ``idx``
    is int64 for an int64 input, else int32 (MindSpore 2.10)."""
    v = value_of(input)
    values, idx = _first_appearance(v.reshape(-1))
    idx_dtype = np.int64 if v.dtype == np.int64 else np.int32
    return tensor(values), tensor(idx.reshape(v.shape).astype(idx_dtype))


@eager_only("ops.unique_consecutive")
def unique_consecutive(input, return_idx=False, return_counts=False, axis=None):  # noqa: A002
    """Distinct values of each run of equal consecutive elements (slices along ``axis``)."""
    v = value_of(input)
    if axis is None:
        flat = v.reshape(-1)
        change = np.concatenate([[True], flat[1:] != flat[:-1]]) if flat.size else np.zeros(0,
                                                                                              bool)
        out = flat[change]
    else:
        axis = canonical_axis(axis, v.ndim, "ops.unique_consecutive")
        moved = np.moveaxis(v, axis, 0).reshape(v.shape[axis], -1)
        change = np.concatenate([[True], (moved[1:] != moved[:-1]).any(1)])
        out = np.take(v, np.flatnonzero(change), axis=axis)
    group = np.cumsum(change) - 1
    results = [tensor(out)]
    if return_idx:
        results.append(tensor(group.reshape(v.shape if axis is None else (-1,)).astype(np.int64)))
    if return_counts:
        results.append(tensor(np.bincount(group).astype(np.int64)))
    return results[0] if len(results) == 1 else tuple(results)


@eager_only("ops.unique_with_pad")
def unique_with_pad(x, pad_num):
    """``unique`` of a 1-d tensor in order of first appearance, padded with ``pad_num`` to
    the input's length; ``idx`` maps each element to its value's position."""
    v = value_of(x).reshape(-1)
    distinct, idx = _first_appearance(v)
    values = np.full(v.shape, pad_num, v.dtype)
    values[:distinct.size] = distinct
    return tensor(values), tensor(idx.astype(np.int64))
