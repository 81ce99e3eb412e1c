"""Shared helpers of the math-side functional ops: argument conversion and results as Tensors."""
from __future__ import annotations

import numbers

import numpy as np

import sporeling.expression as sx
from sporeling.core.errors import ArgumentError, ShapeError, SporelingError
from sporeling.ms.common.dtype import to_numpy

Tensor = sx.Tensor
ops = sx.ops

__all__ = ["Tensor", "ops", "tensor", "result", "as_numpy", "axes", "one_axis", "np_dtype",
           "is_float", "float_of", "const_like", "SporelingError", "ShapeError"]


def tensor(x):
    """``x`` as something the ``sx`` ops take and return a Tensor for: Tensors and traced
    values stay, NumPy arrays and lists become Tensors, Python numbers stay numbers (they
    take the other operand's dtype, as in MindSpore)."""
    if isinstance(x, Tensor) or getattr(x, "_interpreter", None) is not None:
        return x
    if isinstance(x, (numbers.Number, np.bool_)) and not isinstance(x, np.ndarray):
        return x
    return Tensor(x)


def result(x):
    """An op's output as a Tensor (sx ops return NumPy arrays when no Tensor went in)."""
    if isinstance(x, Tensor) or getattr(x, "_interpreter", None) is not None:
        return x
    if isinstance(x, tuple):
        return tuple(result(v) for v in x)
    return Tensor(np.asarray(x))


def as_numpy(x) -> np.ndarray:
    """The value of ``x`` as a NumPy array (eager-only functions)."""
    if isinstance(x, Tensor):
        return x.asnumpy()
    return np.asarray(x)


def axes(axis):
    """MindSpore's ``axis``/``dim`` (None, an int, a list or tuple; ``()`` means all) as
    the ``sx`` ops take it."""
    if axis is None:
        return None
    if isinstance(axis, (list, tuple)):
        return tuple(int(a) for a in axis) or None
    return int(axis)


def one_axis(op: str, axis, ndim: int) -> int:
    """A single axis in ``[0, ndim)`` (negative counts from the end)."""
    if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool):
        raise ArgumentError("needs one integer axis", op=op, expected="an int",
                            got=repr(axis))
    if not -max(ndim, 1) <= axis < max(ndim, 1):
        raise ShapeError("axis out of range", op=op,
                         expected=f"an axis in [-{max(ndim, 1)}, {max(ndim, 1)})",
                         got=f"axis {axis} for a {ndim}-d input")
    return int(axis) % max(ndim, 1)


def np_dtype(dtype):
    """A facade/NumPy dtype (or its name) as a NumPy dtype; None stays None."""
    return to_numpy(dtype)


def is_float(x) -> bool:
    return np.dtype(x.dtype).kind == "f" or str(x.dtype) == "bfloat16"


def float_of(x):
    """``x`` (a Tensor) cast to float32 unless it is already floating (MindSpore's math
    functions promote integer inputs so)."""
    x = tensor(x)
    if isinstance(x, numbers.Number):
        return Tensor(float(x))
    return x if is_float(x) else ops.cast(x, np.float32)


def const_like(value, x):
    """A constant array of ``x``'s dtype (for composing ops without changing dtype)."""
    return np.asarray(value, dtype=x.dtype)
