"""Element-wise arithmetic of ``mindspore.ops`` (r2.3 signatures), composed from ``sx.ops``.

Everything here is built from differentiable ``sx`` ops, so it runs in PyNative and under
``jit`` and carries gradients.
"""
from __future__ import annotations

import numpy as np

from sporeling.core.arguments import check_int

from ._util import SporelingError, float_of, ops, result, tensor
from .complex_parts import complex_input, complex_part

__all__ = ["abs", "absolute", "accumulate_n", "add", "addcdiv", "addcmul", "addn", "ceil",
           "clamp", "clip", "copysign", "diff", "div", "divide", "floor", "floor_div",
           "floor_divide", "floor_mod", "fmod", "frac", "heaviside", "hypot", "inv", "lerp",
           "mul", "multiply", "neg", "negative", "positive", "pow", "float_power", "real",
           "imag", "angle", "reciprocal", "remainder", "round", "rsqrt", "sgn", "sign",
           "signbit", "sqrt", "square", "sub", "subtract", "true_divide", "trunc",
           "truncate_div", "truncate_mod", "xdivy", "xlogy", "trapz", "logical_and",
           "logical_or", "logical_xor", "logical_not"]


def abs(input):
    """``|input|`` element-wise."""
    return result(ops.abs(tensor(input)))


absolute = abs


def add(input, other):
    """``input + other`` with broadcasting (a Python number takes the tensor's dtype)."""
    return result(ops.add(tensor(input), tensor(other)))


def addn(x):
    """The element-wise sum of a list/tuple of tensors of one shape."""
    if not isinstance(x, (list, tuple)) or not x:
        raise SporelingError("needs a non-empty list or tuple of tensors", op="ops.addn",
                             expected="[Tensor, ...]", got=type(x).__name__)
    total = tensor(x[0])
    for item in x[1:]:
        total = ops.add(total, tensor(item))
    return result(total)


def accumulate_n(x):
    """Same as :func:`addn` (MindSpore's AccumulateNV2 without waiting for all inputs)."""
    return addn(x)


def addcdiv(input, tensor1, tensor2, value=1):
    """``input + value * tensor1 / tensor2``."""
    return result(ops.add(tensor(input), ops.mul(ops.div(tensor(tensor1), tensor(tensor2)),
                                                 tensor(value))))


def addcmul(input, tensor1, tensor2, value=1):
    """``input + value * tensor1 * tensor2``."""
    return result(ops.add(tensor(input), ops.mul(ops.mul(tensor(tensor1), tensor(tensor2)),
                                                 tensor(value))))


def sub(input, other):
    """``input - other``."""
    return result(ops.sub(tensor(input), tensor(other)))


def subtract(input, other, *, alpha=1):
    """``input - alpha * other``."""
    other = tensor(other)
    if alpha != 1:
        other = ops.mul(other, alpha)
    return result(ops.sub(tensor(input), other))


def mul(input, other):
    """``input * other``."""
    return result(ops.mul(tensor(input), tensor(other)))


multiply = mul


def div(input, other, *, rounding_mode=None):
    """``input / other``; ``rounding_mode`` ``"floor"`` rounds toward -inf, ``"trunc"``
    toward zero (then an integer input stays integer)."""
    x, y = tensor(input), tensor(other)
    if rounding_mode is None:
        return result(ops.div(x, y))
    if rounding_mode == "floor":
        return result(ops.floordiv(x, y))
    if rounding_mode == "trunc":
        return truncate_div(x, y)
    raise SporelingError("unknown rounding_mode", op="ops.div",
                         expected="None, 'floor' or 'trunc'", got=repr(rounding_mode))


divide = div
true_divide = div


def floor_div(input, other):
    """``floor(input / other)``; integers stay integers."""
    return result(ops.floordiv(tensor(input), tensor(other)))


floor_divide = floor_div


def floor_mod(x, y):
    """``x - floor(x / y) * y``: the remainder takes the sign of ``y`` (Python's ``%``)."""
    return result(ops.mod(tensor(x), tensor(y)))


def remainder(input, other):
    """Same as :func:`floor_mod` (sign of the divisor)."""
    return floor_mod(input, other)


def _is_int(x) -> bool:
    dtype = x.dtype if hasattr(x, "dtype") else np.asarray(x).dtype
    return np.dtype(dtype).kind in "iub"


def trunc(input):
    """Rounds toward zero."""
    x = tensor(input)
    if _is_int(x):
        return result(x)
    return result(ops.where(ops.less(x, 0), ops.ceil(x), ops.floor(x)))


def truncate_div(x, y):
    """``x / y`` rounded toward zero (C division); integers stay integers."""
    x, y = tensor(x), tensor(y)
    if _is_int(x) and _is_int(y):
        q = ops.floordiv(x, y)
        # floor and trunc differ by one where the remainder is non-zero and signs differ
        fix = ops.logical_and(ops.not_equal(ops.mod(x, y), 0),
                              ops.not_equal(ops.less(x, 0), ops.less(y, 0)))
        return result(ops.add(q, ops.cast(fix, q.dtype)))
    return trunc(ops.div(x, y))


def fmod(input, other):
    """``input - trunc(input / other) * other``: the remainder takes the sign of ``input``
    (C's fmod; differs from :func:`remainder` for mixed signs)."""
    x, y = tensor(input), tensor(other)
    return result(ops.sub(x, ops.mul(truncate_div(x, y), y)))


def truncate_mod(x, y):
    """Same as :func:`fmod`."""
    return fmod(x, y)


def frac(input):
    """The fractional part ``input - trunc(input)`` (sign of ``input``)."""
    x = tensor(input)
    return result(ops.sub(x, trunc(x)))


def neg(input):
    """``-input``."""
    return result(ops.neg(tensor(input)))


negative = neg


def positive(input):
    """``input`` itself (MindSpore returns the input)."""
    return result(tensor(input))


def pow(input, exponent):
    """``input ** exponent``; either may be a number."""
    return result(ops.pow(tensor(input), tensor(exponent)))


def float_power(input, exponent):
    """``input ** exponent`` computed in float64."""
    x, y = tensor(input), tensor(exponent)
    x = ops.cast(x, np.float64) if hasattr(x, "dtype") else float(x)
    y = ops.cast(y, np.float64) if hasattr(y, "dtype") else float(y)
    return result(ops.pow(x, y))


def reciprocal(input):
    """``1 / input`` (integers give floats)."""
    return result(ops.reciprocal(float_of(input)))


inv = reciprocal


def sqrt(x):
    """Square root element-wise."""
    return result(ops.sqrt(float_of(x)))


def rsqrt(input):
    """``1 / sqrt(input)``."""
    return result(ops.rsqrt(float_of(input)))


def square(input):
    """``input * input``."""
    return result(ops.square(tensor(input)))


def sign(input):
    """-1, 0 or 1 by the sign of ``input``."""
    return result(ops.sign(tensor(input)))


def sgn(input):
    """Same as :func:`sign` for real inputs (complex tensors do not exist here)."""
    return sign(input)


def signbit(input):
    """True where ``input`` is negative. Note: ``-0.0`` counts as not negative here
    (NumPy/PyTorch say True) -- the ops compare values, not sign bits."""
    x = tensor(input)
    return result(ops.less(x, 0))


def ceil(input):
    """Rounds toward +inf."""
    return result(ops.ceil(tensor(input)))


def floor(input):
    """Rounds toward -inf."""
    return result(ops.floor(tensor(input)))


def round(input, *, decimals=0):
    """Rounds half to even (banker's rounding, as MindSpore and NumPy); ``decimals``
    places after the point."""
    x = tensor(input)
    if _is_int(x):
        return result(x)
    if decimals == 0:
        return result(ops.round(x))
    scale = 10.0 ** decimals
    return result(ops.div(ops.round(ops.mul(x, scale)), scale))


def clamp(input, min=None, max=None):
    """``input`` clipped to ``[min, max]``; either bound may be a tensor or None."""
    if min is None and max is None:
        raise SporelingError("needs min or max", op="ops.clamp",
                             expected="at least one bound", got="min=None, max=None")
    return result(ops.clip(tensor(input), None if min is None else tensor(min),
                           None if max is None else tensor(max)))


clip = clamp


def copysign(x, other):
    """``|x|`` with the sign of ``other``. Note: a ``-0.0`` in ``other`` counts as
    positive here (values are compared, not sign bits)."""
    x = float_of(x)
    magnitude = ops.abs(x)
    return result(ops.where(ops.less(tensor(other), 0), ops.neg(magnitude), magnitude))


def heaviside(input, values):
    """0 where ``input < 0``, ``values`` where ``input == 0``, 1 where ``input > 0``."""
    x = tensor(input)
    one, zero = np.asarray(1, x.dtype), np.asarray(0, x.dtype)
    step = ops.where(ops.greater(x, 0), one, zero)
    return result(ops.where(ops.equal(x, 0), ops.cast(tensor(values), x.dtype), step))


def hypot(input, other):
    """``sqrt(input**2 + other**2)``."""
    x, y = float_of(input), float_of(other)
    return result(ops.sqrt(ops.add(ops.square(x), ops.square(y))))


def lerp(input, end, weight):
    """``input + weight * (end - input)``."""
    x = tensor(input)
    return result(ops.add(x, ops.mul(tensor(weight), ops.sub(tensor(end), x))))


def real(input):
    """The real part (a real input is itself)."""
    x = tensor(input)
    if complex_input(x):
        return complex_part("ops.real", np.real, x)
    return result(x)


def imag(input):
    """The imaginary part (zeros of a real input's shape)."""
    x = tensor(input)
    if complex_input(x):
        return complex_part("ops.imag", np.imag, x)
    return result(ops.mul(x, 0))


def angle(input):
    """The argument of each element: 0 for ``input >= 0`` and pi for negative reals
    (``atan2(imag, real)`` for complex ones)."""
    if complex_input(tensor(input)):
        return complex_part("ops.angle", np.angle, tensor(input))
    x = float_of(input)
    return result(ops.mul(ops.cast(ops.less(x, 0), x.dtype), np.pi))


def xdivy(x, y):
    """``x / y``, and 0 where ``x == 0`` (even where ``y == 0``)."""
    x, y = float_of(x), float_of(y)
    # 0/0 -> 0: only there is y replaced, so the gradient elsewhere is the quotient's
    safe = ops.where(ops.logical_and(ops.equal(x, 0), ops.equal(y, 0)), np.asarray(1, y.dtype), y)
    return result(ops.div(x, safe))


def xlogy(input, other):
    """``input * log(other)``, and 0 where ``input == 0``."""
    x, y = float_of(input), float_of(other)
    # 0 * log(y <= 0) -> 0: only there is y replaced, so d/dx stays log(y) at x == 0
    bad = ops.logical_and(ops.equal(x, 0), ops.less_equal(y, 0))
    return result(ops.mul(x, ops.log(ops.where(bad, np.asarray(1, y.dtype), y))))


def _along(x, axis: int, key):
    index = [slice(None)] * len(x.shape)
    index[axis] = key
    return ops.getitem(x, tuple(index))


def diff(x, n=1, axis=-1, prepend=None, append=None):
    """The ``n``-th forward difference ``x[i+1] - x[i]`` along ``axis``; ``prepend`` /
    ``append`` are joined on first."""
    x = tensor(x)
    parts = [tensor(p) for p in (prepend, x, append) if p is not None]
    if len(parts) > 1:
        x = ops.concat(parts, axis=axis)
    ax = axis % len(x.shape)
    if bool_input := np.dtype(x.dtype) == np.bool_:
        x = ops.cast(x, np.int8)
    n = check_int(n, "n", op="ops.diff", min=0)
    for _ in range(min(n, x.shape[ax])):  # past the axis' length it stays empty
        x = ops.sub(_along(x, ax, slice(1, None)), _along(x, ax, slice(None, -1)))
    if bool_input:
        x = ops.not_equal(x, 0)
    return result(x)


def trapz(y, x=None, *, dx=1.0, dim=-1):
    """The integral of ``y`` along ``dim`` by the trapezoidal rule, spacing ``x`` (sample
    points) or ``dx``."""
    y = float_of(y)
    ax = dim % len(y.shape)
    mids = ops.div(ops.add(_along(y, ax, slice(1, None)), _along(y, ax, slice(None, -1))), 2.0)
    if x is None:
        return result(ops.mul(ops.sum(mids, axis=ax), dx))
    x = float_of(x)
    xa = ax if len(x.shape) == len(y.shape) else len(x.shape) - 1
    widths = ops.sub(_along(x, xa, slice(1, None)), _along(x, xa, slice(None, -1)))
    return result(ops.sum(ops.mul(mids, widths), axis=ax))


def logical_and(input, other):
    """``input and other`` element-wise (non-zero is True); a bool Tensor."""
    return result(ops.logical_and(tensor(input), tensor(other)))


def logical_or(input, other):
    """``input or other`` element-wise; a bool Tensor."""
    return result(ops.logical_or(tensor(input), tensor(other)))


def logical_xor(input, other):
    """``input xor other`` element-wise; a bool Tensor."""
    return result(ops.logical_xor(tensor(input), tensor(other)))


def logical_not(input):
    """``not input`` element-wise; a bool Tensor."""
    return result(ops.logical_not(tensor(input)))
