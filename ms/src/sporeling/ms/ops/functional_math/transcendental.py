"""Trigonometric, hyperbolic, exponential and logarithmic functions of ``mindspore.ops``,
composed from ``sx.ops`` (differentiable, Graph-mode ready). Integer inputs give float32."""
from __future__ import annotations

import math

import numpy as np

from ._util import float_of, ops, result

__all__ = ["sin", "cos", "tan", "asin", "acos", "atan", "atan2", "arcsin", "arccos", "arctan",
           "arctan2", "sinh", "cosh", "asinh", "acosh", "atanh", "arcsinh", "arccosh",
           "arctanh", "sinc", "deg2rad", "rad2deg", "exp", "exp2", "expm1", "log", "log2",
           "log10", "log1p", "logaddexp", "logaddexp2", "logit", "erf", "erfc", "erfinv", "ldexp",
           "tanhshrink"]


def sin(input):
    """Sine element-wise."""
    return result(ops.sin(float_of(input)))


def cos(input):
    """Cosine element-wise."""
    return result(ops.cos(float_of(input)))


def tan(input):
    """Tangent, ``sin / cos``."""
    x = float_of(input)
    return result(ops.div(ops.sin(x), ops.cos(x)))


def atan2(input, other):
    """The angle of the point ``(other, input)``: ``atan(input / other)`` in the right
    quadrant."""
    return result(ops.atan2(float_of(input), float_of(other)))


arctan2 = atan2


def atan(input):
    """Inverse tangent."""
    x = float_of(input)
    return result(ops.atan2(x, ops.add(ops.mul(x, 0), 1)))


def asin(input):
    """Inverse sine: ``atan2(x, sqrt(1 - x**2))``; NaN outside [-1, 1]."""
    x = float_of(input)
    return result(ops.atan2(x, ops.sqrt(ops.sub(1, ops.square(x)))))


def acos(input):
    """Inverse cosine: ``atan2(sqrt(1 - x**2), x)``; NaN outside [-1, 1]."""
    x = float_of(input)
    return result(ops.atan2(ops.sqrt(ops.sub(1, ops.square(x))), x))


arcsin, arccos, arctan = asin, acos, atan


def sinh(input):
    """``(exp(x) - exp(-x)) / 2``."""
    x = float_of(input)
    return result(ops.div(ops.sub(ops.exp(x), ops.exp(ops.neg(x))), 2))


def cosh(input):
    """``(exp(x) + exp(-x)) / 2``."""
    x = float_of(input)
    return result(ops.div(ops.add(ops.exp(x), ops.exp(ops.neg(x))), 2))


def asinh(input):
    """``log(x + sqrt(x**2 + 1))``, by oddness ``-asinh(-x)`` for negative x (no
    cancellation there)."""
    x = float_of(input)

    def positive_side(v):
        return ops.log(ops.add(v, ops.sqrt(ops.add(ops.square(v), 1))))
    return result(ops.where(ops.less(x, 0), ops.neg(positive_side(ops.neg(x))), positive_side(x)))


def acosh(input):
    """``log(x + sqrt(x**2 - 1))``; NaN below 1."""
    x = float_of(input)
    return result(ops.log(ops.add(x, ops.sqrt(ops.sub(ops.square(x), 1)))))


def atanh(input):
    """``log((1 + x) / (1 - x)) / 2``."""
    x = float_of(input)
    return result(ops.div(ops.sub(ops.log1p(x), ops.log1p(ops.neg(x))), 2))


arcsinh, arccosh, arctanh = asinh, acosh, atanh


def sinc(input):
    """The normalised sinc ``sin(pi x) / (pi x)``, 1 at 0."""
    x = float_of(input)
    zero = ops.equal(x, 0)
    px = ops.mul(ops.where(zero, ops.add(ops.mul(x, 0), 1), x), math.pi)
    return result(ops.where(zero, ops.add(ops.mul(x, 0), 1), ops.div(ops.sin(px), px)))


def deg2rad(x):
    """Degrees to radians."""
    return result(ops.mul(float_of(x), math.pi / 180))


def rad2deg(x):
    """Radians to degrees."""
    return result(ops.mul(float_of(x), 180 / math.pi))


def exp(input):
    """``e ** input``."""
    return result(ops.exp(float_of(input)))


def exp2(input):
    """``2 ** input``."""
    return result(ops.exp(ops.mul(float_of(input), math.log(2))))


def expm1(input):
    """``exp(input) - 1``, accurate near 0."""
    return result(ops.expm1(float_of(input)))


def log(input):
    """Natural logarithm."""
    return result(ops.log(float_of(input)))


def log2(input):
    """Base-2 logarithm."""
    return result(ops.div(ops.log(float_of(input)), math.log(2)))


def log10(input):
    """Base-10 logarithm."""
    return result(ops.div(ops.log(float_of(input)), math.log(10)))


def log1p(input):
    """``log(1 + input)``, accurate near 0."""
    return result(ops.log1p(float_of(input)))


def logaddexp(input, other):
    """``log(exp(input) + exp(other))`` without overflow."""
    x, y = float_of(input), float_of(other)
    big = ops.maximum(x, y)
    gap = ops.neg(ops.abs(ops.sub(x, y)))
    gap = ops.where(ops.isinf(big), np.asarray(0, big.dtype), gap)   # -inf - -inf is NaN
    return result(ops.add(big, ops.log1p(ops.exp(gap))))


def logaddexp2(input, other):
    """``log2(2**input + 2**other)`` without overflow."""
    x, y = float_of(input), float_of(other)
    big = ops.maximum(x, y)
    gap = ops.mul(ops.neg(ops.abs(ops.sub(x, y))), math.log(2))
    gap = ops.where(ops.isinf(big), np.asarray(0, big.dtype), gap)   # -inf - -inf is NaN
    return result(ops.add(big, ops.div(ops.log1p(ops.exp(gap)), math.log(2))))


def logit(input, eps=None):
    """``log(x / (1 - x))``; with ``eps``, ``x`` is first clipped to ``[eps, 1 - eps]``."""
    x = float_of(input)
    if eps is not None:
        x = ops.clip(x, eps, 1 - eps)
    return result(ops.sub(ops.log(x), ops.log1p(ops.neg(x))))


def erf(input):
    """The Gauss error function."""
    return result(ops.erf(float_of(input)))


def erfc(input):
    """``1 - erf(input)``."""
    return result(ops.sub(1, ops.erf(float_of(input))))


# M. Giles, "Approximating the erfinv function" (GPU Computing Gems, 2010): single-precision
# polynomials in w = -log(1 - x^2), one for the centre (w < 5) and one for the tails.
_ERFINV_CENTRE = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06,
                  0.00021858087, -0.00125372503, -0.00417768164, 0.246640727, 1.50140941)
_ERFINV_TAIL = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844,
                0.00573950773, -0.0076224613, 0.00943887047, 1.00167406, 2.83297682)


def _horner(coefficients, w):
    p = coefficients[0]
    for c in coefficients[1:]:
        p = ops.add(ops.mul(p, w), c)
    return p


def erfinv(input):
    """The inverse error function: Giles' polynomial start refined by two Newton steps on
    ``erf`` (float64 accurate); +-inf at +-1, NaN outside [-1, 1]. Differentiable."""
    y = float_of(input)
    w = ops.neg(ops.log1p(ops.neg(ops.square(y))))               # -log(1 - y^2)
    centre = _horner(_ERFINV_CENTRE, ops.sub(ops.minimum(w, 5.0), 2.5))
    tail = _horner(_ERFINV_TAIL, ops.sub(ops.sqrt(ops.maximum(w, 5.0)), 3.0))
    x = ops.mul(ops.where(ops.less(w, 5.0), centre, tail), y)
    edge = ops.equal(ops.abs(y), 1)
    x = ops.where(edge, np.asarray(0, x.dtype), x)               # keep the steps finite
    for _ in range(2):
        slope = ops.mul(ops.exp(ops.neg(ops.square(x))), 2 / math.sqrt(math.pi))
        x = ops.sub(x, ops.div(ops.sub(ops.erf(x), y), slope))
    return result(ops.where(edge, ops.mul(ops.sign(y), np.asarray(np.inf, x.dtype)), x))


def ldexp(x, other):
    """``x * 2 ** other``."""
    return result(ops.mul(float_of(x), ops.exp(ops.mul(float_of(other), math.log(2)))))


def tanhshrink(input):
    """``input - tanh(input)``."""
    x = float_of(input)
    return result(ops.sub(x, ops.tanh(x)))
