"""Indexing kernels: slices as views, advanced indexing and scatter-adds into pool memory.

An index reaches a kernel as a static ``key`` -- a tuple of ints, ``None``, ``Ellipsis``,
``(start, stop, step)`` triples for slices and the marker ``"operand"`` for each index array,
which follow as operands in order -- plus those arrays (see ``sporeling.compiler.ops.indexing``).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..kernel_registry import KernelMemory
from .table import define, output, writes_out

OPERAND = "operand"


@lru_cache(maxsize=4096)
def _decode(key: tuple) -> tuple[tuple, bool]:
    """The NumPy index for ``key`` (arrays still as markers) and whether it has arrays."""
    index = tuple(slice(*k) if isinstance(k, tuple) else k for k in key)
    has_arrays = any(isinstance(k, str) for k in key)
    if not has_arrays and Ellipsis not in index:
        index += (Ellipsis,)  # all-int keys then give a 0-d view, not a NumPy scalar
    return index, has_arrays


def numpy_index(key: tuple, arrays) -> tuple:
    """The NumPy index of ``key`` with the index arrays in place of their markers."""
    index, has_arrays = _decode(key)
    if not has_arrays:
        return index
    arrays = iter(arrays)
    return tuple(next(arrays) if isinstance(k, str) else k for k in index)


def _copy_out(backend, out, value):
    result = output(backend, out, value.shape, value.dtype)
    np.copyto(result, value)
    return result


@define("slice", memory=KernelMemory.VIEW)
def slice_(backend, x, out=None, *, slices):
    """``x[start:stop:step, ...]``: a view."""
    view = np.asarray(x)[_decode(slices)[0]]
    return view if out is None else _copy_out(backend, out, view)


@define("getitem", memory=KernelMemory.VIEW)
def getitem(backend, x, *arrays, out=None, key):
    """``x[key]``: a view for basic indices, a copy into pool memory for index arrays."""
    if out is None and len(arrays) == 1 and getattr(arrays[0], "ndim", None) == 0 and \
            arrays[0].dtype.kind in "iu":  # one integer scalar (a step's learning rate):
        # the same element by basic indexing, a view of x (fancy indexing, a pool buffer
        # and a copy cost several times more)
        index = numpy_index(key, (int(arrays[0]),))
        return np.asarray(x)[index if Ellipsis in index else index + (Ellipsis,)]
    index = numpy_index(key, arrays)
    value = np.asarray(x)[index]
    if out is None and not arrays:
        return value
    return _copy_out(backend, out, np.asarray(value))


@define("add_at", memory=writes_out())
def add_at(backend, x, updates, *arrays, out=None, key):
    """A copy of ``x`` with ``updates`` added at ``x[key]``; repeated indices accumulate."""
    x = np.asarray(x)
    result = output(backend, out, x.shape, x.dtype)
    np.copyto(result, x)
    index = numpy_index(key, arrays)
    if not arrays:  # basic indices select each element at most once
        result[index] += updates
    elif not _add_rows(result, index, updates):
        np.add.at(result, index, updates)
    return result


_ROWS_MAX_COLUMNS = 4096  # past this, one bincount per column loses to np.add.at


def _add_rows(result, index, updates) -> bool:
    """``np.add.at(result, (rows,), updates)`` for float results indexed on axis 0 by one
    integer array (gather's and embedding's backward), as one ``np.bincount`` per column:
    about 10x faster than ``np.add.at``. False when the case does not apply (the caller then
    uses ``np.add.at``, which also raises for out-of-range rows)."""
    if len(index) != 1 or result.ndim == 0 or result.dtype.kind != "f":
        return False
    rows = np.asarray(index[0])
    n = result.shape[0]
    if rows.dtype.kind not in "iu" or rows.size == 0:
        return False
    flat = rows.reshape(-1)
    columns = result[0].size
    updates = np.broadcast_to(updates, rows.shape + result.shape[1:])
    if columns > _ROWS_MAX_COLUMNS or flat.min() < -n or flat.max() >= n:
        return False
    if flat.min() < 0:
        flat = np.where(flat < 0, flat + n, flat)
    table = result.reshape(n, columns)
    weights = updates.reshape(flat.size, columns)
    for j in range(columns):
        table[:, j] += np.bincount(flat, weights=weights[:, j], minlength=n).astype(
            result.dtype, copy=False)
    return True


@define("gather", memory=writes_out())
def gather(backend, x, indices, out=None, *, axis):
    """``np.take`` along ``axis`` into pool memory."""
    x = np.asarray(x)
    shape = x.shape[:axis] + np.shape(indices) + x.shape[axis + 1:]
    return np.take(x, indices, axis=axis, out=output(backend, out, shape, x.dtype))


def along_axis_index(indices, axis: int) -> tuple:
    """The advanced index that ``np.take_along_axis`` uses: ``indices`` on ``axis`` and a
    broadcast ``arange`` on every other axis."""
    shape = np.shape(indices)
    index = []
    for d, n in enumerate(shape):
        if d == axis:
            index.append(indices)
        else:
            index.append(np.arange(n).reshape((1,) * d + (n,) + (1,) * (len(shape) - d - 1)))
    return tuple(index)


@define("take_along_axis", memory=writes_out())
def take_along_axis(backend, x, indices, out=None, *, axis):
    """``np.take_along_axis`` into pool memory."""
    return _copy_out(backend, out, np.asarray(x)[along_axis_index(indices, axis)])


@define("scatter_add", memory=writes_out())
def scatter_add(backend, x, indices, updates, out=None, *, axis):
    """A copy of ``x`` plus ``updates`` scattered along ``axis`` at ``indices``."""
    x = np.asarray(x)
    result = output(backend, out, x.shape, x.dtype)
    np.copyto(result, x)
    np.add.at(result, along_axis_index(indices, axis), updates)
    return result


@define("one_hot", memory=writes_out())
def one_hot(backend, indices, out=None, *, depth, dtype):
    """1 where the last axis's position equals the index, else 0 (also for out-of-range)."""
    indices = np.asarray(indices)
    result = output(backend, out, indices.shape + (depth,), dtype)
    np.copyto(result, np.arange(depth) == indices[..., None])
    return result
