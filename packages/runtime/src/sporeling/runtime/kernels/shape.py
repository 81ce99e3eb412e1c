"""Shape kernels: views where NumPy gives them (no copy, no pool memory), copies otherwise."""
from __future__ import annotations

import itertools

import numpy as np

from ..kernel_registry import KernelMemory
from .table import define, output, writes_out


@define("reshape", memory=KernelMemory.VIEW)
def reshape(backend, x, out=None, *, shape):
    """A view when the layout allows, else a copy into pool memory."""
    if out is not None:
        np.copyto(out, np.reshape(x, shape))
        return out
    # the method, not np.reshape: a quarter of the cost (Graph mode runs many reshapes)
    return x.reshape(shape) if type(x) is np.ndarray else np.reshape(x, shape)


@define("broadcast_to", memory=KernelMemory.VIEW)
def broadcast_to(backend, x, out=None, *, shape):
    """A read-only broadcast view (kernels never write into their inputs)."""
    if out is not None:
        np.copyto(out, np.broadcast_to(x, shape))
        return out
    view = _broadcast_view(x, shape) if type(x) is np.ndarray else None
    return np.broadcast_to(x, shape) if view is None else view


def _broadcast_view(x: np.ndarray, shape: tuple):
    """``np.broadcast_to`` of a C-contiguous array as a zero-stride view, built directly (a
    fifth of NumPy's general path: every reduction's backward broadcasts its cotangent);
    None where it does not apply, and NumPy then also reports the errors."""
    lead = len(shape) - x.ndim
    if lead < 0 or not x.flags.c_contiguous:
        return None
    strides = [0] * lead
    for n, m, stride in zip(x.shape, shape[lead:], x.strides):
        if n == m:
            strides.append(stride)
        elif n == 1:
            strides.append(0)
        else:
            return None
    view = np.ndarray(shape, x.dtype, x, 0, tuple(strides))
    view.flags.writeable = False
    return view


@define("transpose", memory=KernelMemory.VIEW)
def transpose(backend, x, out=None, *, axes):
    """A strided view; consumers that need contiguous memory copy it themselves."""
    if out is not None:
        np.copyto(out, np.transpose(x, axes))
        return out
    return x.transpose(axes) if type(x) is np.ndarray else np.transpose(x, axes)


@define("cast", memory=writes_out())
def cast(backend, x, out=None, *, dtype):
    """``x`` converted to ``dtype`` into pool memory."""
    out = output(backend, out, np.shape(x), dtype)
    np.copyto(out, x, casting="unsafe")
    return out


@define("concat", memory=writes_out())
def concat(backend, *xs, out=None, axis):
    """``np.concatenate`` into pool memory."""
    first = np.shape(xs[0])
    shape = first[:axis] + (sum(np.shape(x)[axis] for x in xs),) + first[axis + 1:]
    return np.concatenate(xs, axis=axis,
                          out=output(backend, out, shape, np.result_type(*xs)))


@define("split", memory=KernelMemory.VIEW)
def split(backend, x, out=None, *, indices, axis):
    """A tuple of views of ``x`` (``np.split``), or copies into the buffers ``out``."""
    parts = tuple(np.split(x, indices, axis=axis))
    if out is None:
        return parts
    for buffer, part in zip(out, parts):
        np.copyto(buffer, part)
    return tuple(out)


@define("tile", memory=writes_out())
def tile(backend, x, out=None, *, reps):
    """``np.tile`` written through a broadcast view, so the only copy is into pool memory."""
    x = np.asarray(x)
    shape = tuple(n * r for n, r in zip(x.shape, reps))
    result = output(backend, out, shape, x.dtype)
    split_shape = tuple(d for pair in zip(reps, x.shape) for d in pair)
    expanded = np.reshape(x, tuple(d for n in x.shape for d in (1, n)))
    np.copyto(result.reshape(split_shape), np.broadcast_to(expanded, split_shape))
    return result


@define("repeat", memory=writes_out())
def repeat(backend, x, out=None, *, repeats, axis):
    """``np.repeat`` of every element ``repeats`` times along ``axis``, into pool memory."""
    x = np.asarray(x)
    shape = x.shape
    result = output(backend, out, shape[:axis] + (shape[axis] * repeats,) + shape[axis + 1:],
                    x.dtype)
    split_shape = shape[:axis] + (shape[axis], repeats) + shape[axis + 1:]
    np.copyto(result.reshape(split_shape), np.expand_dims(x, axis + 1))
    return result


@define("flip", memory=KernelMemory.VIEW)
def flip(backend, x, out=None, *, axis):
    """A view with negative strides."""
    if out is not None:
        np.copyto(out, np.flip(x, axis))
        return out
    return np.flip(x, axis)


def _roll_blocks(n: int, s: int):
    # (destination, source) slice pairs of one axis rolled by s (0 < s < n)
    return ((slice(s, None), slice(0, n - s)), (slice(0, s), slice(n - s, None)))


@define("roll", memory=writes_out())
def roll(backend, x, out=None, *, shift, axis):
    """``np.roll`` as block copies straight into pool memory (no temporary)."""
    x = np.asarray(x)
    result = output(backend, out, x.shape, x.dtype)
    per_axis = [((slice(None), slice(None)),)] * x.ndim
    for a, s in zip(axis, shift):
        n = x.shape[a]
        s %= max(n, 1)
        per_axis[a] = _roll_blocks(n, s) if s else ((slice(None), slice(None)),)
    for blocks in itertools.product(*per_axis):
        result[tuple(b[0] for b in blocks)] = x[tuple(b[1] for b in blocks)]
    return result


@define("pad", memory=writes_out())
def pad(backend, x, out=None, *, pad_width, mode, value):
    """Constant or reflect padding written into pool memory: the input is copied to the
    centre, then each axis's margins are filled in turn (as ``np.pad`` does)."""
    x = np.asarray(x)
    shape = tuple(n + a + b for n, (a, b) in zip(x.shape, pad_width))
    result = output(backend, out, shape, x.dtype)
    centre = tuple(slice(a, a + n) for n, (a, _) in zip(x.shape, pad_width))
    if mode == "constant":
        result.fill(value)
        result[centre] = x
        return result
    if mode != "reflect":
        raise ValueError(f"unknown pad mode {mode!r}")
    result[centre] = x
    full = [slice(None)] * x.ndim
    for axis, ((left, right), n) in enumerate(zip(pad_width, x.shape)):
        if max(left, right) >= n and max(left, right) > 0:
            raise ValueError(f"reflect pad {left, right} too wide for size {n}")

        def at(s, axis=axis):
            return tuple(full[:axis] + [s] + full[axis + 1:])
        if left:
            result[at(slice(0, left))] = result[at(slice(2 * left, left, -1))]
        if right:
            end = left + n
            stop = end - 2 - right  # -1 would mean "the last element", not "through 0"
            result[at(slice(end, end + right))] = \
                result[at(slice(end - 2, stop if stop >= 0 else None, -1))]
    return result
