"""Type conversion and other functions of ``mindspore.ops`` (r2.3): ``is_tensor``,
``is_nonzero``, ``scalar_cast``, ``scalar_to_tensor``, ``tuple_to_array``, ``depend``,
``stop_gradient``, ``cast``, ``dtype``."""
from __future__ import annotations

import numbers

import numpy as np

import sporeling.expression as sx

from ._util import SporelingError, Tensor, np_dtype, result, tensor

__all__ = ["is_tensor", "is_nonzero", "scalar_cast", "scalar_to_tensor", "tuple_to_array",
           "depend", "stop_gradient", "cast", "dtype"]


def is_tensor(input):
    """True for a Tensor (Parameters included)."""
    return isinstance(input, Tensor)


def is_nonzero(input):
    """Whether the single element of ``input`` is non-zero (a Python bool); a tensor of
    another size raises."""
    x = tensor(input)
    if int(np.prod(x.shape, dtype=np.int64)) != 1:
        raise SporelingError("needs a tensor of exactly one element", op="ops.is_nonzero",
                             expected="1 element", got=f"shape {tuple(x.shape)}")
    return bool(x.asnumpy().reshape(()) != 0)


def scalar_cast(input_x, input_y):
    """The Python scalar ``input_x`` converted to the dtype ``input_y`` (bool, an int or a
    float dtype): a Python bool, int or float."""
    dtype = np_dtype(input_y)
    if not isinstance(input_x, (numbers.Number, np.generic)):
        raise SporelingError("needs a Python scalar", op="ops.scalar_cast",
                             expected="an int, float or bool", got=type(input_x).__name__)
    if dtype.kind == "b":
        return bool(input_x)
    if dtype.kind in "iu":
        return int(input_x)
    return float(input_x)


def scalar_to_tensor(input_x, dtype=None):
    """A 0-d Tensor of the scalar ``input_x`` (float32 unless ``dtype``)."""
    if not isinstance(input_x, (numbers.Number, np.generic)):
        raise SporelingError("needs a Python scalar", op="ops.scalar_to_tensor",
                             expected="an int, float or bool", got=type(input_x).__name__)
    return Tensor(np.asarray(input_x, np_dtype(dtype) or np.float32))


def tuple_to_array(input_x):
    """A 1-D Tensor of a tuple of numbers: int64 for ints, float32 for floats."""
    if not isinstance(input_x, (tuple, list)) or not input_x:
        raise SporelingError("needs a non-empty tuple of numbers", op="ops.tuple_to_array",
                             expected="(number, ...)", got=repr(input_x))
    ints = all(isinstance(v, numbers.Integral) for v in input_x)
    return Tensor(np.asarray(input_x, np.int64 if ints else np.float32))


def depend(value, expr):
    """``value``; in MindSpore it orders ``expr`` before ``value`` in a graph. Sporeling
    runs side effects in program order, so nothing else is needed."""
    return value


def stop_gradient(value):
    """``value`` as a constant for autodiff: no gradient flows through it."""
    if isinstance(value, (tuple, list)):
        return type(value)(stop_gradient(v) for v in value)
    return result(sx.stop_gradient(tensor(value)))


def cast(input, dtype):
    """``input`` converted to ``dtype`` (differentiable between float dtypes)."""
    return tensor(input).astype(np_dtype(dtype))


def dtype(input):
    """The facade dtype object of ``input`` (``ops.dtype(x)`` prints ``Float32``)."""
    from ...common.dtype import from_numpy
    return from_numpy(tensor(input).dtype)
