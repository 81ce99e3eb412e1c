"""Gathering, scattering, masking, segments and uniqueness (MindSpore r2.3 ``mindspore.ops``
array operations). Scatters build a new tensor with sx's differentiable ``add_at`` /
``scatter_add`` and ``where``; functions whose result shape depends on the values
(``nonzero``, ``unique``, ``masked_select``...) are eager only."""
from __future__ import annotations

import builtins

import numpy as np

import sporeling.expression as sx

from ._common import SporelingError, canonical_axis, full_like, ops, tensor, value_of

_bslice = builtins.slice

__all__ = ["gather", "gather_d", "gather_elements", "gather_nd", "index_select", "index_add",
           "index_fill", "inplace_add", "inplace_sub", "inplace_update", "inplace_index_add",
           "masked_fill", "scatter", "scatter_nd", "select_scatter", "slice", "slice_scatter",
           "sequence_mask", "shuffle", "strided_slice", "tensor_scatter_add",
           "tensor_scatter_sub", "tensor_scatter_mul", "tensor_scatter_div",
           "tensor_scatter_max", "tensor_scatter_min", "tensor_scatter_elements"]


def _ints(x):
    return ops.cast(tensor(x), np.int64)


def _wrap(index, n):
    """Negative indices counted from the end, as MindSpore's gathers accept."""
    return ops.where(index < 0, index + n, index)


def _zeros_like(x):
    return full_like(x, 0)


def _write_back(target, result):
    """MindSpore updates Parameter inputs of these in place; do the same and return it."""
    if isinstance(target, sx.Parameter):
        target.set_data(result)
        return target
    return result


def gather(input_params, input_indices, axis, batch_dims=0):
    """Entries along ``axis`` at ``input_indices`` (``np.take``); ``batch_dims`` leading
    axes are shared by the params and the indices."""
    x, idx = tensor(input_params), _ints(input_indices)
    axis = canonical_axis(axis, x.ndim, "ops.gather")
    if batch_dims == 0:
        return ops.gather(x, _wrap(idx, x.shape[axis]), axis=axis)
    b = int(batch_dims)
    lead = tuple(x.shape[:b])
    nb = int(np.prod(lead))
    xs = ops.reshape(x, (nb,) + tuple(x.shape[b:]))
    ids = ops.reshape(idx, (nb,) + tuple(idx.shape[b:]))
    parts = [ops.gather(ops.getitem(xs, i), _wrap(ops.getitem(ids, i), x.shape[axis]),
                        axis=axis - b) for i in range(nb)]
    out = ops.stack(parts, axis=0)
    return ops.reshape(out, lead + tuple(out.shape[1:]))


def gather_elements(input, dim, index):  # noqa: A002
    """out[i][j] = input[index[i][j]][j] for dim 0 (``torch.gather``)."""
    x = tensor(input)
    dim = canonical_axis(dim, x.ndim, "ops.gather_elements")
    return ops.take_along_axis(x, _wrap(_ints(index), x.shape[dim]), dim)


def gather_d(x, dim, index):
    """Alias of :func:`gather_elements`."""
    return gather_elements(x, dim, index)


def gather_nd(input_x, indices):
    """Slices of ``input_x`` at the index tuples in the last axis of ``indices``."""
    x, idx = tensor(input_x), _ints(indices)
    k = idx.shape[-1]
    key = tuple(_wrap(ops.getitem(idx, (Ellipsis, i)), x.shape[i]) for i in range(k))
    return ops.getitem(x, key)


def index_select(input, axis, index):  # noqa: A002
    """Entries along ``axis`` at the 1-d ``index``."""
    x = tensor(input)
    return ops.index_select(x, _ints(index), axis=canonical_axis(axis, x.ndim,
                                                                  "ops.index_select"))


def _along(axis, ndim, index):
    return (_bslice(None),) * axis + (index,)


def index_add(x, indices, y, axis, use_lock=True, check_index_bound=True):
    """``x`` with ``y``'s slices added at ``indices`` along ``axis`` (repeats accumulate).
    A Parameter ``x`` is updated in place, as in MindSpore."""
    t = tensor(x)
    axis = canonical_axis(axis, t.ndim, "ops.index_add")
    return _write_back(x, ops.add_at(t, _along(axis, t.ndim, _ints(indices)), tensor(y)))


def inplace_index_add(var, indices, updates, axis):
    """:func:`index_add` on a Parameter, updated in place."""
    return index_add(var, indices, updates, axis)


def index_fill(x, axis, index, value):
    """``x`` with the slices at ``index`` along ``axis`` set to ``value``."""
    t = tensor(x)
    axis = canonical_axis(axis, t.ndim, "ops.index_fill")
    n = t.shape[axis]
    hit = ops.add_at(tensor(np.zeros(n, np.float32)), _wrap(_ints(index), n), 1.0) > 0
    view = [1] * t.ndim
    view[axis] = n
    return ops.where(ops.reshape(hit, tuple(view)), _zeros_like(t) + tensor(value, t.dtype), t)


def _rows(op, x, v, indices):
    t, v = tensor(x), tensor(v)
    idx = _ints(indices)
    if idx.ndim == 0:
        idx = ops.reshape(idx, (1,))
        v = ops.reshape(v, (1,) + tuple(v.shape)) if v.ndim < t.ndim else v
    return t, v, _wrap(idx, t.shape[0])


def inplace_add(x, v, indices):
    """x[indices] += v (rows along axis 0); a new tensor unless ``x`` is a Parameter."""
    t, v, idx = _rows("ops.inplace_add", x, v, indices)
    return _write_back(x, ops.add_at(t, idx, v))


def inplace_sub(x, v, indices):
    """x[indices] -= v (rows along axis 0)."""
    t, v, idx = _rows("ops.inplace_sub", x, v, indices)
    return _write_back(x, ops.add_at(t, idx, ops.neg(v)))


def inplace_update(x, v, indices):
    """x[indices] = v (rows along axis 0)."""
    t, v, idx = _rows("ops.inplace_update", x, v, indices)
    hit = ops.add_at(tensor(np.zeros(t.shape[0], np.float32)), idx, 1.0) > 0
    written = ops.add_at(_zeros_like(t), idx, v)
    mask = ops.reshape(hit, (-1,) + (1,) * (t.ndim - 1))
    return _write_back(x, ops.where(mask, written, t))


def masked_fill(input_x, mask, value):
    """``value`` where ``mask`` holds, ``input_x`` elsewhere."""
    x = tensor(input_x)
    if isinstance(value, sx.Tensor):  # a tensor value stays in the graph
        fill = ops.broadcast_to(ops.cast(value, x.dtype), tuple(x.shape))
    else:
        fill = full_like(x, value)
    return ops.where(tensor(mask), fill, x)


def _along_axis_key(idx, axis):
    """An index tuple reaching ``x[..., idx[i, j], ...]`` for every position of ``idx``
    (which may be smaller than ``x`` on every axis)."""
    grids = np.indices(tuple(idx.shape))
    return tuple(idx if d == axis else tensor(grids[d]) for d in range(idx.ndim))


def scatter(input, axis, index, src):  # noqa: A002
    """``input`` with out[index[i][j]][j] = src[i][j] along ``axis`` (``torch.scatter``);
    duplicate positions take the sum of their sources (MindSpore leaves them undefined)."""
    x = tensor(input)
    axis = canonical_axis(axis, x.ndim, "ops.scatter")
    idx = _wrap(_ints(index), x.shape[axis])
    s = tensor(src, x.dtype) if not isinstance(src, (int, float)) else \
        ops.broadcast_to(tensor(np.asarray(src, x.dtype)), tuple(idx.shape))
    s = ops.getitem(s, tuple(_bslice(0, n) for n in idx.shape))
    key = _along_axis_key(idx, axis)
    written = ops.add_at(_zeros_like(x), key, s)
    hits = ops.add_at(tensor(np.zeros(x.shape, np.float32)), key,
                      tensor(np.ones(idx.shape, np.float32)))
    return ops.where(hits > 0, written, x)


def _nd_key(indices, shape_):
    idx = _ints(indices)
    k = idx.shape[-1]
    return tuple(_wrap(ops.getitem(idx, (Ellipsis, i)), shape_[i]) for i in range(k))


def scatter_nd(indices, updates, shape):  # noqa: A002
    """Zeros of ``shape`` with ``updates`` added at the index tuples of ``indices``."""
    u = tensor(updates)
    zeros = tensor(np.zeros(tuple(int(s) for s in shape), u.dtype))
    return ops.add_at(zeros, _nd_key(indices, tuple(shape)), u)


def _tensor_scatter(op, input_x, indices, updates, combine):
    x, u = tensor(input_x), tensor(updates)
    key = _nd_key(indices, tuple(x.shape))
    hits = ops.add_at(tensor(np.zeros(x.shape, np.float32)), key,
                      tensor(np.ones(u.shape, np.float32))) > 0
    gathered_shape = tuple(x.shape)
    if combine == "add":
        return ops.add_at(x, key, u)
    if combine == "sub":
        return ops.add_at(x, key, ops.neg(u))
    if combine == "update":
        return ops.where(hits, ops.add_at(_zeros_like(x), key, u), x)
    # mul/div/max/min: one update per position (MindSpore applies repeats in turn)
    placed = ops.where(hits, ops.add_at(_zeros_like(x), key, u), x)
    del gathered_shape
    if combine == "mul":
        return ops.where(hits, x * placed, x)
    if combine == "div":
        return ops.where(hits, x / ops.where(hits, placed, full_like(x, 1)), x)
    if combine == "max":
        return ops.maximum(x, placed)
    return ops.minimum(x, placed)


def tensor_scatter_add(input_x, indices, updates):
    """``input_x`` plus ``updates`` at the index tuples (repeats accumulate)."""
    return _tensor_scatter("ops.tensor_scatter_add", input_x, indices, updates, "add")


def tensor_scatter_sub(input_x, indices, updates):
    return _tensor_scatter("ops.tensor_scatter_sub", input_x, indices, updates, "sub")


def tensor_scatter_mul(input_x, indices, updates):
    """``input_x`` times ``updates`` at the index tuples (one update per position)."""
    return _tensor_scatter("ops.tensor_scatter_mul", input_x, indices, updates, "mul")


def tensor_scatter_div(input_x, indices, updates):
    return _tensor_scatter("ops.tensor_scatter_div", input_x, indices, updates, "div")


def tensor_scatter_max(input_x, indices, updates):
    return _tensor_scatter("ops.tensor_scatter_max", input_x, indices, updates, "max")


def tensor_scatter_min(input_x, indices, updates):
    return _tensor_scatter("ops.tensor_scatter_min", input_x, indices, updates, "min")


def tensor_scatter_elements(input_x, indices, updates, axis=0, reduction="none"):
    """:func:`scatter` along ``axis``; ``reduction='add'`` adds instead of replacing."""
    if reduction == "add":
        x = tensor(input_x)
        axis = canonical_axis(axis, x.ndim, "ops.tensor_scatter_elements")
        idx = _wrap(_ints(indices), x.shape[axis])
        u = ops.getitem(tensor(updates, x.dtype), tuple(_bslice(0, n) for n in idx.shape))
        return ops.add_at(x, _along_axis_key(idx, axis), u)
    if reduction != "none":
        raise SporelingError("unknown reduction", op="ops.tensor_scatter_elements",
                             expected="'none' or 'add'", got=repr(reduction))
    return scatter(input_x, axis, indices, updates)


def _slice_op(input_x, begin, size):
    """``size[i]`` elements from ``begin[i]`` per axis (-1: to the end)."""
    return ops.slice(tensor(input_x), tuple(int(b) for b in begin), tuple(int(s) for s in size))


def _mask_bits(mask, n):
    return [bool(int(mask) >> i & 1) for i in range(n)]


def strided_slice(input_x, begin, end, strides, begin_mask=0, end_mask=0, ellipsis_mask=0,
                  new_axis_mask=0, shrink_axis_mask=0):
    """MindSpore's (TensorFlow's) strided slice with its bit masks."""
    x = tensor(input_x)
    n = len(begin)
    bm, em = _mask_bits(begin_mask, n), _mask_bits(end_mask, n)
    el, na, sh = _mask_bits(ellipsis_mask, n), _mask_bits(new_axis_mask, n), \
        _mask_bits(shrink_axis_mask, n)
    key = []
    for i in range(n):
        if el[i]:
            key.append(Ellipsis)
        elif na[i]:
            key.append(None)
        elif sh[i]:
            key.append(int(begin[i]))
        else:
            key.append(_bslice(None if bm[i] else int(begin[i]),
                                      None if em[i] else int(end[i]), int(strides[i])))
    return ops.getitem(x, tuple(key))


def slice_scatter(input, src, axis=0, start=None, end=None, step=1):  # noqa: A002
    """``input`` with ``input[start:end:step]`` along ``axis`` replaced by ``src``."""
    x, s = tensor(input), tensor(src)
    axis = canonical_axis(axis, x.ndim, "ops.slice_scatter")
    key = (_bslice(None),) * axis + (_bslice(start, end, step),)
    mask = np.zeros(x.shape, bool)
    mask[key] = True
    return ops.where(tensor(mask), ops.add_at(_zeros_like(x), key, s), x)


def select_scatter(input, src, axis, index):  # noqa: A002
    """``input`` with the slice at ``index`` along ``axis`` replaced by ``src``."""
    x = tensor(input)
    axis = canonical_axis(axis, x.ndim, "ops.select_scatter")
    index = int(index) % x.shape[axis]
    return slice_scatter(x, ops.expand_dims(tensor(src), axis), axis, index, index + 1)


def sequence_mask(lengths, maxlen=None):
    """mask[..., j] = j < lengths[...]; ``maxlen`` defaults to the largest length (read in
    PyNative; give it under Graph mode)."""
    lens = _ints(lengths)
    if maxlen is None:
        maxlen = int(value_of(lens, "ops.sequence_mask", "lengths",
                              "give maxlen under Graph mode").max()) if lens.size else 0
    pos = tensor(np.arange(int(maxlen), dtype=np.int64))
    return ops.less(pos, ops.expand_dims(lens, -1))


def shuffle(x, seed=None):
    """``x`` with its first axis randomly permuted."""
    t = tensor(x)
    order = ops.permutation(tensor(np.arange(t.shape[0], dtype=np.int64)))
    return ops.gather(t, order, axis=0)


slice = _slice_op  # noqa: A001  (MindSpore's name; the module uses _bslice)
slice.__name__ = "slice"
