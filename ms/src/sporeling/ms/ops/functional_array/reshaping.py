"""Array functions 2.10's ``mindspore.ops`` adds to the facade's ``array``/``matrix``
modules: ``atleast_1d/2d/3d``, ``cartesian_prod``, ``row_stack``, ``expand``/``expand_as``/
``view_as``/``type_as``, ``take``, ``fills``/``eps``, the ``ops.functional`` primitive
instances ``shape_``, ``reshape_``, ``tensor_slice``, ``tensor_scatter_update``,
``scalar_to_array``, and the banded-matrix functions ``matrix_band_part``,
``matrix_diag``, ``matrix_diag_part``, ``matrix_set_diag``, ``mirror_pad``. Built from sx
ops: Graph mode and gradients included."""
from __future__ import annotations

import numpy as np

from ._common import SporelingError, Tensor, full_like, ops, tensor, to_numpy
from .array import broadcast_to, reshape, shape, vstack
from .indexing import _tensor_scatter, slice as _slice

__all__ = ["atleast_1d", "atleast_2d", "atleast_3d", "cartesian_prod", "row_stack", "expand",
           "expand_as", "view_as", "type_as", "take", "fills", "eps", "shape_", "reshape_",
           "tensor_slice", "tensor_scatter_update", "scalar_to_array", "matrix_band_part",
           "matrix_diag", "matrix_diag_part", "matrix_set_diag", "mirror_pad"]


def _each(inputs, fn):
    if isinstance(inputs, (list, tuple)):
        return tuple(fn(tensor(x)) for x in inputs)
    return fn(tensor(inputs))


def atleast_1d(inputs):
    """Each Tensor (one, or a list/tuple of them) with at least 1 dimension."""
    return _each(inputs, lambda x: ops.reshape(x, (1,)) if x.ndim == 0 else x)


def atleast_2d(inputs):
    """Each Tensor with at least 2 dimensions (new leading axes of size 1)."""
    return _each(inputs, lambda x: ops.reshape(x, (1,) * (2 - x.ndim) + tuple(x.shape))
                 if x.ndim < 2 else x)


def _to_3d(x):
    if x.ndim == 0:
        return ops.reshape(x, (1, 1, 1))
    if x.ndim == 1:
        return ops.reshape(x, (1, x.shape[0], 1))
    if x.ndim == 2:
        return ops.reshape(x, tuple(x.shape) + (1,))
    return x


def atleast_3d(inputs):
    """Each Tensor with at least 3 dimensions: ``(N,)`` -> ``(1, N, 1)``, ``(M, N)`` ->
    ``(M, N, 1)`` (NumPy's rule)."""
    return _each(inputs, _to_3d)


def cartesian_prod(*inputs):
    """The Cartesian product of 1-D tensors: ``(prod of sizes, len(inputs))`` rows in
    lexicographic order (one input: itself)."""
    xs = [tensor(x) for x in inputs]
    for x in xs:
        if x.ndim != 1:
            raise SporelingError("needs 1-D tensors", op="ops.cartesian_prod",
                                 expected="1-D inputs", got=f"shape {list(x.shape)}")
    if len(xs) == 1:
        return xs[0]
    sizes = tuple(x.shape[0] for x in xs)
    columns = []
    for i, x in enumerate(xs):
        view = (1,) * i + (sizes[i],) + (1,) * (len(xs) - i - 1)
        columns.append(ops.reshape(ops.broadcast_to(ops.reshape(x, view), sizes), (-1,)))
    return ops.stack(columns, axis=1)


def row_stack(tensors):
    """Same as :func:`vstack`."""
    return vstack(tensors)


def expand(input_x, size):
    """``input_x`` broadcast to ``size`` (a tuple or a 1-D Tensor; -1 keeps an axis)."""
    if isinstance(size, Tensor):
        size = size.asnumpy().tolist()
    x = tensor(input_x)
    lead = len(size) - x.ndim
    target = tuple(int(x.shape[i - lead]) if int(s) == -1 and i >= lead else int(s)
                   for i, s in enumerate(size))
    return broadcast_to(x, target)


def expand_as(input, other):  # noqa: A002
    """``input`` broadcast to ``other``'s shape."""
    return broadcast_to(input, tuple(tensor(other).shape))


def view_as(input, other):  # noqa: A002
    """``input`` reshaped to ``other``'s shape."""
    return reshape(input, tuple(tensor(other).shape))


def type_as(input, other):  # noqa: A002
    """``input`` cast to ``other``'s dtype."""
    return ops.cast(tensor(input), tensor(other).dtype)


def take(input, index):  # noqa: A002
    """The elements of the flattened ``input`` at ``index`` (shaped like ``index``;
    negative indices count from the end)."""
    x = ops.reshape(tensor(input), (-1,))
    idx = ops.cast(tensor(index), np.int64)
    n = x.shape[0]
    idx = ops.where(ops.less(idx, 0), ops.add(idx, n), idx)
    return ops.reshape(ops.gather(x, ops.reshape(idx, (-1,)), axis=0), tuple(idx.shape))


def fills(x, value):
    """A Tensor of ``x``'s shape and dtype filled with ``value`` (deprecated in 2.10)."""
    return full_like(tensor(x), value)


def eps(x):
    """A Tensor of ``x``'s shape and float dtype filled with that dtype's machine epsilon
    (``1.1920929e-07`` for float32)."""
    x = tensor(x)
    if np.dtype(x.dtype).kind != "f":
        raise SporelingError("needs a float tensor", op="ops.eps",
                             expected="float16, float32 or float64", got=str(x.dtype))
    return full_like(x, float(np.finfo(x.dtype).eps))


def shape_(input_x):
    """``P.Shape()(input_x)``: the shape as a tuple."""
    return shape(input_x)


def reshape_(input, shape):  # noqa: A002
    """``P.Reshape()(input, shape)``."""
    return reshape(input, shape)


def tensor_slice(input_x, begin, size):
    """``P.Slice()(input_x, begin, size)``: the block starting at ``begin`` of ``size``
    (-1: to the end)."""
    return _slice(input_x, begin, size)


def tensor_scatter_update(input_x, indices, updates):
    """``input_x`` with ``updates`` written at the index tuples of ``indices``."""
    return _tensor_scatter("ops.tensor_scatter_update", input_x, indices, updates, "update")


def scalar_to_array(input_x):
    """A 0-d Tensor of a Python scalar (int64 for ints, float32 for floats)."""
    if isinstance(input_x, bool):
        return tensor(np.bool_(input_x))
    if isinstance(input_x, (int, np.integer)):
        return tensor(np.int64(input_x))
    return tensor(np.float32(input_x))


# --- banded matrices --------------------------------------------------------------------

def _offsets(k):
    """``(low, high)`` diagonal offsets of MindSpore's ``k`` (an int or a pair)."""
    k = np.asarray(k.asnumpy() if isinstance(k, Tensor) else k).reshape(-1)
    low, high = (int(k[0]), int(k[0])) if k.size == 1 else (int(k[0]), int(k[1]))
    if low > high:
        raise SporelingError("k[0] must not exceed k[1]", op="ops.matrix_diag",
                             expected="k[0] <= k[1]", got=f"k = ({low}, {high})")
    return low, high


def _left_aligned(d, align) -> bool:
    """Whether diagonal ``d`` is left-aligned in its packed row: superdiagonals follow the
    first word of ``align``, subdiagonals the second; the main one is left-aligned if
    either word says LEFT for it (TensorFlow's rule)."""
    sup, sub = (word == "LEFT" for word in align.split("_"))
    return (d >= 0 and sup) or (d <= 0 and sub)


def _check_align(op, align):
    if align not in ("LEFT_LEFT", "LEFT_RIGHT", "RIGHT_LEFT", "RIGHT_RIGHT"):
        raise SporelingError("unknown align", op=op,
                             expected="LEFT_LEFT, LEFT_RIGHT, RIGHT_LEFT or RIGHT_RIGHT",
                             got=repr(align))


def _diag_index(rows, cols, low, high, align):
    """For every diagonal d in [low, high] (row ``high - d`` of the packed form) and slot j
    of the packed row (``max_len`` wide): the matrix position it holds, or -1 (padding)."""
    max_len = max(min(rows + min(0, d), cols - max(0, d)) for d in range(low, high + 1))
    rows_idx = np.full((high - low + 1, max_len), -1, np.int64)
    cols_idx = np.full_like(rows_idx, -1)
    for d in range(low, high + 1):
        length = min(rows + min(0, d), cols - max(0, d))
        start = 0 if _left_aligned(d, align) else max_len - length
        r0, c0 = max(0, -d), max(0, d)
        slots = np.arange(length)
        rows_idx[high - d, start + slots] = r0 + slots
        cols_idx[high - d, start + slots] = c0 + slots
    return rows_idx, cols_idx, max_len


def matrix_diag_part(x, k=0, padding_value=0, align="RIGHT_LEFT"):
    """The diagonals ``k`` (an int, or ``(low, high)``) of the last two axes of ``x``:
    ``(..., len)`` for one diagonal, ``(..., high - low + 1, max_len)`` for a band, the
    shorter diagonals padded with ``padding_value`` on the side ``align`` leaves free."""
    _check_align("ops.matrix_diag_part", align)
    x = tensor(x)
    rows, cols = x.shape[-2:]
    low, high = _offsets(k)
    ri, ci, _ = _diag_index(rows, cols, low, high, align)
    valid = ri >= 0
    flat = ops.reshape(x, tuple(x.shape[:-2]) + (rows * cols,))
    picked = ops.gather(flat, tensor(np.where(valid, ri * cols + ci, 0).reshape(-1)),
                        axis=flat.ndim - 1)
    picked = ops.reshape(picked, tuple(x.shape[:-2]) + ri.shape)
    out = ops.where(tensor(valid), picked, full_like(picked, padding_value))
    return ops.squeeze(out, axis=out.ndim - 2) if low == high else out


def matrix_diag(x, k=0, num_rows=-1, num_cols=-1, padding_value=0, align="RIGHT_LEFT"):
    """The matrices with diagonals ``k`` taken from ``x`` (the packed form
    :func:`matrix_diag_part` returns) and ``padding_value`` elsewhere; ``num_rows``/
    ``num_cols`` -1: the smallest square that holds them."""
    _check_align("ops.matrix_diag", align)
    x = tensor(x)
    low, high = _offsets(k)
    packed = x if low != high else ops.expand_dims(x, x.ndim - 1)
    max_len = packed.shape[-1]
    rows, cols = max_len - min(high, 0), max_len + max(low, 0)
    if int(num_rows) == -1 and int(num_cols) == -1:
        rows = cols = max(rows, cols)
    else:
        rows = rows if int(num_rows) == -1 else int(num_rows)
        cols = cols if int(num_cols) == -1 else int(num_cols)
    ri, ci, width = _diag_index(rows, cols, low, high, align)
    if width != max_len:
        raise SporelingError("the diagonals do not fit the matrix", op="ops.matrix_diag",
                             expected=f"diagonals of length {width}",
                             got=f"length {max_len}")
    lead = tuple(packed.shape[:-2])
    base = full_like(tensor(np.zeros(lead + (rows * cols,), to_numpy(x.dtype))),
                     padding_value)
    valid = (ri >= 0).reshape(-1)
    positions = (ri * cols + ci).reshape(-1)[valid]
    values = ops.reshape(packed, lead + (-1,))
    values = ops.gather(values, tensor(np.nonzero(valid)[0]), axis=values.ndim - 1)
    hits = np.zeros(rows * cols, bool)
    hits[positions] = True
    placed = ops.add_at(base * 0, (Ellipsis, tensor(positions)), values)
    out = ops.where(tensor(hits), placed, base)
    return ops.reshape(out, lead + (rows, cols))


def matrix_set_diag(x, diagonal, k=0, align="RIGHT_LEFT"):
    """``x`` with its diagonals ``k`` replaced by ``diagonal`` (the packed form of
    :func:`matrix_diag_part`)."""
    _check_align("ops.matrix_set_diag", align)
    x = tensor(x)
    rows, cols = x.shape[-2:]
    low, high = _offsets(k)
    ri, ci, _ = _diag_index(rows, cols, low, high, align)
    packed = tensor(diagonal)
    if low == high:
        packed = ops.expand_dims(packed, packed.ndim - 1)
    valid = (ri >= 0).reshape(-1)
    positions = (ri * cols + ci).reshape(-1)[valid]
    lead = tuple(x.shape[:-2])
    values = ops.reshape(ops.broadcast_to(packed, lead + ri.shape), lead + (-1,))
    values = ops.gather(values, tensor(np.nonzero(valid)[0]), axis=values.ndim - 1)
    flat = ops.reshape(x, lead + (rows * cols,))
    hits = np.zeros(rows * cols, bool)
    hits[positions] = True
    placed = ops.add_at(flat * 0, (Ellipsis, tensor(positions)), values)
    return ops.reshape(ops.where(tensor(hits), placed, flat), tuple(x.shape))


def matrix_band_part(x, lower, upper):
    """``x`` with everything outside the band of ``lower`` sub- and ``upper``
    superdiagonals set to 0 (a negative count keeps that whole triangle)."""
    x = tensor(x)
    rows, cols = x.shape[-2:]
    i, j = np.ogrid[:rows, :cols]
    lower = int(np.asarray(lower.asnumpy() if isinstance(lower, Tensor) else lower))
    upper = int(np.asarray(upper.asnumpy() if isinstance(upper, Tensor) else upper))
    keep = ((lower < 0) | (i - j <= lower)) & ((upper < 0) | (j - i <= upper))
    return ops.where(tensor(keep), x, ops.mul(x, 0))


def mirror_pad(input_x, paddings, mode="REFLECT"):
    """``input_x`` padded by reflection: ``paddings`` is ``(ndim, 2)`` (before, after) per
    axis; ``"REFLECT"`` leaves the edge out of the mirror, ``"SYMMETRIC"`` repeats it."""
    from .. import primitives
    return primitives.MirrorPad(mode=mode)(input_x, paddings)
