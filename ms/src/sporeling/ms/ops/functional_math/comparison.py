"""Comparison functions of ``mindspore.ops`` (r2.3): element-wise comparisons, predicates,
``isclose``, ``maximum``/``minimum``. Sorting-based comparisons live in :mod:`.sorting`."""
from __future__ import annotations

import numpy as np

from ._util import is_float, ops, result, tensor
from .complex_parts import complex_input, complex_part

__all__ = ["eq", "equal", "ne", "not_equal", "gt", "greater", "ge", "greater_equal", "lt",
           "less", "le", "less_equal", "maximum", "minimum", "isclose", "approximate_equal",
           "isfinite", "isinf", "isnan", "isneginf", "isposinf", "isreal", "is_complex",
           "is_floating_point"]


def _compare(sx_op, name: str, doc: str):
    def fn(input, other):
        return result(sx_op(tensor(input), tensor(other)))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc + " Broadcasts; returns a bool Tensor."
    return fn


equal = _compare(ops.equal, "equal", "``input == other`` element-wise.")
not_equal = _compare(ops.not_equal, "not_equal", "``input != other`` element-wise.")
greater = _compare(ops.greater, "greater", "``input > other`` element-wise.")
greater_equal = _compare(ops.greater_equal, "greater_equal", "``input >= other`` element-wise.")
less = _compare(ops.less, "less", "``input < other`` element-wise.")
less_equal = _compare(ops.less_equal, "less_equal", "``input <= other`` element-wise.")
eq, ne, gt, ge, lt, le = equal, not_equal, greater, greater_equal, less, less_equal


def maximum(input, other):
    """The element-wise maximum (NaN propagates; see ``fmax`` to ignore it)."""
    return result(ops.maximum(tensor(input), tensor(other)))


def minimum(input, other):
    """The element-wise minimum (NaN propagates)."""
    return result(ops.minimum(tensor(input), tensor(other)))


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """``|input - other| <= atol + rtol * |other|`` element-wise; infinities of one sign
    are close; NaNs only with ``equal_nan``."""
    x, y = tensor(input), tensor(other)
    close = ops.less_equal(ops.abs(ops.sub(x, y)), ops.add(atol, ops.mul(rtol, ops.abs(y))))
    close = ops.logical_or(close, ops.equal(x, y))     # equal infinities
    if equal_nan:
        close = ops.logical_or(close, ops.logical_and(ops.isnan(x), ops.isnan(y)))
    return result(close)


def approximate_equal(x, y, tolerance=1e-5):
    """``|x - y| < tolerance`` element-wise."""
    return result(ops.less(ops.abs(ops.sub(tensor(x), tensor(y))), tolerance))


def isfinite(input):
    """True where ``input`` is neither inf nor NaN."""
    return result(ops.isfinite(tensor(input)))


def isinf(input):
    """True where ``input`` is +inf or -inf."""
    return result(ops.isinf(tensor(input)))


def isnan(input):
    """True where ``input`` is NaN."""
    return result(ops.isnan(tensor(input)))


def isposinf(input):
    """True where ``input`` is +inf."""
    x = tensor(input)
    return result(ops.logical_and(ops.isinf(x), ops.greater(x, 0)))


def isneginf(input):
    """True where ``input`` is -inf."""
    x = tensor(input)
    return result(ops.logical_and(ops.isinf(x), ops.less(x, 0)))


def isreal(input):
    """True where the imaginary part is 0 (everywhere for a real input)."""
    x = tensor(input)
    if complex_input(x):
        return complex_part("ops.isreal", lambda v: np.imag(v) == 0, x)
    return result(ops.equal(ops.mul(ops.cast(x, np.float32), 0), 0))


def is_complex(input):
    """Whether ``input`` holds complex numbers (a Python bool, as MindSpore)."""
    return complex_input(tensor(input))


def is_floating_point(input):
    """Whether ``input``'s dtype is a float type (a Python bool)."""
    return is_float(tensor(input))
