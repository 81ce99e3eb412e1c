"""Tensor creation functions of ``mindspore.ops`` (r2.3): constants built with NumPy and
wrapped as Tensors (under ``jit`` they are graph constants; shapes are static).

Default dtypes follow MindSpore: ``zeros``/``ones``/``eye``/``linspace`` float32; ``arange``
and ``range`` int64 when every bound is an int, else float32; ``full`` int64 whatever the fill
value (2.10: ``full((2, 3), 1.5)`` is int64 ones).
"""
from __future__ import annotations

import builtins
import numbers

import numpy as np

from sporeling.core.arguments import check_float

from ._util import SporelingError, Tensor, np_dtype, ops, result, tensor

__all__ = ["zeros", "ones", "zeros_like", "ones_like", "full", "full_like", "fill", "eye",
           "arange", "range", "linspace", "logspace", "one_hot"]


def _shape(op: str, size) -> tuple[int, ...]:
    if isinstance(size, Tensor):
        size = size.asnumpy().tolist()
    if isinstance(size, (int, np.integer)):
        return (int(size),)
    if isinstance(size, (tuple, list)) and len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = size[0]
    try:
        shape = tuple(int(n) for n in size)
    except (TypeError, ValueError):
        raise SporelingError("bad shape", op=op, expected="an int or a tuple/list of ints",
                             got=repr(size)) from None
    if any(n < 0 for n in shape):
        raise SporelingError("bad shape", op=op, expected="sizes >= 0", got=repr(shape))
    return shape


def _const(array: np.ndarray, dtype) -> Tensor:
    return Tensor(array, np_dtype(dtype))


def zeros(size, dtype=None):
    """A tensor of zeros of shape ``size`` (float32 by default)."""
    return _const(np.zeros(_shape("ops.zeros", size), np.float32), dtype)


def ones(shape, dtype=None):
    """A tensor of ones of ``shape`` (float32 by default)."""
    return _const(np.ones(_shape("ops.ones", shape), np.float32), dtype)


def zeros_like(input, *, dtype=None):
    """Zeros of ``input``'s shape and dtype (or ``dtype``)."""
    x = tensor(input)
    return _const(np.zeros(tuple(x.shape), np.dtype(x.dtype)), dtype)


def ones_like(input, *, dtype=None):
    """Ones of ``input``'s shape and dtype (or ``dtype``)."""
    x = tensor(input)
    return _const(np.ones(tuple(x.shape), np.dtype(x.dtype)), dtype)


def full(size, fill_value, *, dtype=None):
    """A tensor of shape ``size`` filled with ``fill_value`` (a number, or a 0-d tensor
    that is broadcast, keeping its gradient when ``dtype`` is a float type). Dtype:
    ``dtype``, else **int64** whatever the fill value -- MindSpore 2.10's documented default:
    ``full((2, 3), 1.5)`` is int64 ones (the value truncated toward zero); pass
    ``dtype=ms.float32`` for 1.5."""
    shape = _shape("ops.full", size)
    target = np_dtype(dtype) or np.dtype(np.int64)
    if isinstance(fill_value, Tensor) or getattr(fill_value, "_interpreter", None) is not None:
        return result(ops.broadcast_to(ops.cast(fill_value, target), shape))
    return Tensor(np.full(shape, fill_value, target))


def full_like(input, fill_value, *, dtype=None):
    """``input``'s shape filled with ``fill_value`` (``input``'s dtype unless ``dtype``)."""
    x = tensor(input)
    return Tensor(np.full(tuple(x.shape), fill_value, np_dtype(dtype) or np.dtype(x.dtype)))


def fill(type, shape, value):
    """A tensor of dtype ``type`` and ``shape`` filled with ``value``."""
    return Tensor(np.full(_shape("ops.fill", shape), value, np_dtype(type)))


def eye(n, m=None, dtype=None):
    """The ``n x m`` identity (``m = n`` by default), float32 unless ``dtype``."""
    return Tensor(np.eye(int(n), None if m is None else int(m), dtype=np_dtype(dtype) or np.float32))


def _scalar(v):
    return v.item() if isinstance(v, Tensor) else v


def _range_dtype(*bounds):
    return np.int64 if all(isinstance(b, numbers.Integral) for b in bounds) else np.float32


def arange(start=0, end=None, step=1, *, dtype=None):
    """``[start, end)`` by ``step`` (``arange(n)`` is ``[0, n)``). Int64 when every bound is
    an int, else float32, unless ``dtype``."""
    start, end, step = _scalar(start), _scalar(end), _scalar(step)
    if end is None:
        start, end = 0, start
    for name, value in (("start", start), ("end", end), ("step", step)):
        check_float(value, name, op="ops.arange")
    if step == 0:
        raise SporelingError("step must not be 0", op="ops.arange", expected="step != 0",
                             got="step=0")
    out_dtype = np_dtype(dtype) or _range_dtype(start, end, step)
    return Tensor(np.arange(start, end, step).astype(out_dtype))


def range(start, end, step, maxlen=1000000):
    """``[start, end)`` by ``step`` (int64 for int bounds, else float32); at most
    ``maxlen`` elements."""
    start, end, step = _scalar(start), _scalar(end), _scalar(step)
    if step == 0:
        raise SporelingError("step must not be 0", op="ops.range", expected="step != 0",
                             got="step=0")
    values = np.arange(start, end, step)
    if values.size > maxlen:
        raise SporelingError("more elements than maxlen", op="ops.range",
                             expected=f"<= {maxlen} elements", got=values.size)
    return Tensor(values.astype(_range_dtype(start, end, step)))


def linspace(start, end, steps):
    """``steps`` evenly spaced values from ``start`` to ``end`` inclusive (float32)."""
    return Tensor(np.linspace(_scalar(start), _scalar(end), int(_scalar(steps)),
                              dtype=np.float64).astype(np.float32))


def logspace(start, end, steps, base=10, *, dtype=None):
    """``base ** linspace(start, end, steps)`` (float32 unless ``dtype``)."""
    exponents = np.linspace(_scalar(start), _scalar(end), int(steps), dtype=np.float64)
    return Tensor((float(base) ** exponents).astype(np_dtype(dtype) or np.float32))


def one_hot(indices, depth, on_value=1, off_value=0, axis=-1):
    """The one-hot encoding of integer ``indices`` with ``depth`` classes, as
    ``on_value``/``off_value`` (their dtype; float32 for Python numbers), the new axis at
    ``axis``. Indices outside ``[0, depth)`` give an all-``off_value`` row."""
    idx = tensor(indices)
    hot = ops.one_hot(idx, int(depth), dtype=np.bool_)
    on, off = tensor(on_value), tensor(off_value)
    dtype = np.dtype(on.dtype) if hasattr(on, "dtype") else np.dtype(np.float32)
    on = ops.cast(on, dtype) if hasattr(on, "dtype") else np.asarray(on, dtype)
    off = ops.cast(off, dtype) if hasattr(off, "dtype") else np.asarray(off, dtype)
    out = ops.where(hot, on, off)
    ndim = len(out.shape)
    ax = axis % ndim
    if ax != ndim - 1:
        order = list(builtins.range(ndim - 1))  # ops.range shadows the builtin
        order.insert(ax, ndim - 1)
        out = ops.transpose(out, tuple(order))
    return result(out)
