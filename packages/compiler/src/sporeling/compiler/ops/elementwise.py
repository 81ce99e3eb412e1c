"""Elementwise arithmetic and math (broadcasting where they take several operands).

Each is a primitive, its abstract rule (shared: broadcast shapes, one dtype) and its backward
rule; the op function promotes dtypes and then binds. Activations live in :mod:`.activation`,
``clip`` in :mod:`.clip`.

    >>> import numpy as np
    >>> mod(np.array([-3, 3]), 2)                # the sign of the divisor, as in Python
    array([1, 1])
    >>> pow(np.array([1.0, 2.0, 3.0], np.float32), 2)
    array([1., 4., 9.], dtype=float32)
"""
from __future__ import annotations

from sporeling.core import DTypeError

from ..core import Aval, Primitive, bind, def_backward
from ._util import as_operand, elementwise_aval, float_operand, promote, unbroadcast
from .comparison import equal, greater, less, where
from .dtype import cast

__all__ = ["add", "sub", "mul", "div", "floordiv", "mod", "pow", "maximum", "minimum",
           "atan2", "neg", "exp", "log", "abs", "sign", "expm1", "log1p", "sqrt", "rsqrt",
           "square", "reciprocal", "sin", "cos", "floor", "ceil", "round"]

_INTEGRAL = ("b", "i", "u")


def _unary(name: str, **traits) -> Primitive:
    prim = Primitive(name, elementwise=True, **traits)
    prim.def_abstract_eval(lambda x, **params: Aval(tuple(x.shape), x.dtype))
    return prim


def _binary(name: str, **traits) -> Primitive:
    prim = Primitive(name, elementwise=True, **traits)
    prim.def_abstract_eval(elementwise_aval(name))
    return prim


# traits: core (every backend implements it), fusible (joins fused elementwise chains),
# amp (mixed-precision class)
add_p = _binary("add", core=True, fusible=True, amp="promote")
sub_p = _binary("sub", core=True, fusible=True, amp="promote")
mul_p = _binary("mul", core=True, fusible=True, amp="promote")
div_p = _binary("div", core=True, fusible=True, amp="promote")
floordiv_p = _binary("floordiv", core=True)
mod_p = _binary("mod", core=True)
pow_p = _binary("pow", core=True, fusible=True, amp="black")
maximum_p = _binary("maximum", core=True, fusible=True, amp="promote")
minimum_p = _binary("minimum", core=True, fusible=True, amp="promote")
atan2_p = _binary("atan2", core=True, amp="promote")

neg_p = _unary("neg", core=True, fusible=True)
exp_p = _unary("exp", core=True, fusible=True, amp="black")
log_p = _unary("log", core=True, fusible=True, amp="black")
abs_p = _unary("abs", core=True, fusible=True)
sign_p = _unary("sign", core=True)
expm1_p = _unary("expm1", core=True, fusible=True, amp="black")
log1p_p = _unary("log1p", core=True, fusible=True, amp="black")
sqrt_p = _unary("sqrt", core=True, fusible=True, amp="black")
rsqrt_p = _unary("rsqrt", fusible=True, amp="black")
square_p = _unary("square", fusible=True, amp="black")
reciprocal_p = _unary("reciprocal", fusible=True, amp="black")
sin_p = _unary("sin", core=True, fusible=True)
cos_p = _unary("cos", core=True, fusible=True)
floor_p = _unary("floor", core=True)
ceil_p = _unary("ceil", core=True)
round_p = _unary("round", core=True)
pow_scalar_p = _unary("pow_scalar", fusible=True, amp="black")


# ---- binary ----------------------------------------------------------------------------

def add(x, y):
    """``x + y`` with broadcasting."""
    return bind(add_p, *promote("add", x, y))


def sub(x, y):
    """``x - y`` with broadcasting."""
    return bind(sub_p, *promote("sub", x, y))


def mul(x, y):
    """``x * y`` with broadcasting."""
    return bind(mul_p, *promote("mul", x, y))


def div(x, y):
    """True division ``x / y``; integers divide as floats."""
    x, y = promote("div", x, y)
    return bind(div_p, float_operand(x), float_operand(y))


def floordiv(x, y):
    """``floor(x / y)`` (Python's ``//``); integers stay integers. Zero gradient."""
    return bind(floordiv_p, *promote("floordiv", x, y))


def mod(x, y):
    """``x - floordiv(x, y) * y``: the result has the sign of ``y`` (Python, NumPy)."""
    return bind(mod_p, *promote("mod", x, y))


def pow(x, y):
    """``x ** y``. A Python-number ``y`` keeps ``x``'s dtype (ints stay ints unless ``y`` is
    a float); a tensor ``y`` broadcasts, and its gradient ``x**y * log(x)`` needs ``x > 0``.

        >>> import numpy as np
        >>> pow(np.array([4.0, 9.0]), np.array([0.5, 2.0]))
        array([ 2., 81.])
    """
    if type(y) is int or type(y) is float:
        x = as_operand(x)
        if x.dtype.kind in _INTEGRAL:
            if type(y) is float:
                x = float_operand(x)
            elif y < 0:
                raise DTypeError("integers to negative integer powers are not allowed",
                                 op="pow", expected="a float base or a non-negative exponent",
                                 got=f"{x.dtype} ** {y}")
        if y == 1:
            return x
        return bind(pow_scalar_p, x, exponent=y)
    return bind(pow_p, *promote("pow", x, y))


def maximum(x, y):
    """Elementwise maximum; the gradient goes to the larger (half each on ties)."""
    return bind(maximum_p, *promote("maximum", x, y))


def minimum(x, y):
    """Elementwise minimum; the gradient goes to the smaller (half each on ties)."""
    return bind(minimum_p, *promote("minimum", x, y))


def atan2(y, x):
    """The angle of the point ``(x, y)``: ``arctan(y / x)`` in the right quadrant."""
    y, x = promote("atan2", y, x)
    return bind(atan2_p, float_operand(y), float_operand(x))


# Selective: a constant operand (``x * 2.0``) gets no cotangent: no kernel, no sum-reshape.
@def_backward(add_p, uses=(), selective=True)
def _add_bwd(ct, x, y, *, out, needs):
    return (unbroadcast(ct, x.shape) if needs[0] else None,
            unbroadcast(ct, y.shape) if needs[1] else None)


@def_backward(sub_p, uses=(), selective=True)
def _sub_bwd(ct, x, y, *, out, needs):
    return (unbroadcast(ct, x.shape) if needs[0] else None,
            unbroadcast(neg(ct), y.shape) if needs[1] else None)


@def_backward(mul_p, uses=(0, 1), selective=True)
def _mul_bwd(ct, x, y, *, out, needs):
    if x is y and needs[0] and needs[1]:  # x * x: one product for both (the tape adds)
        return (mul(ct, x),) * 2
    return (unbroadcast(mul(ct, y), x.shape) if needs[0] else None,
            unbroadcast(mul(ct, x), y.shape) if needs[1] else None)


@def_backward(div_p, uses=(1, "out"), selective=True)
def _div_bwd(ct, x, y, *, out, needs):
    gx = div(ct, y)
    return (unbroadcast(gx, x.shape) if needs[0] else None,
            unbroadcast(neg(mul(gx, out)), y.shape) if needs[1] else None)


@def_backward(floordiv_p, uses=())
def _floordiv_bwd(ct, x, y, *, out):
    return None, None  # piecewise constant: zero gradient


@def_backward(mod_p, uses=(0, 1))
def _mod_bwd(ct, x, y, *, out):
    return unbroadcast(ct, x.shape), unbroadcast(neg(mul(ct, floordiv(x, y))), y.shape)


@def_backward(pow_p, uses=(0, 1, "out"))
def _pow_bwd(ct, x, y, *, out):
    gx = mul(ct, mul(y, pow(x, sub(y, 1.0))))
    safe = where(equal(x, 0.0), 1.0, x)  # 0 ** y: no log(0) (zero gradient for y > 0)
    gy = mul(ct, mul(out, log(safe)))
    return unbroadcast(gx, x.shape), unbroadcast(gy, y.shape)


@def_backward(pow_scalar_p, uses=(0,))
def _pow_scalar_bwd(ct, x, *, out, exponent):
    return (mul(ct, mul(pow(x, exponent - 1), exponent)),)


def _pick_bwd(compare):
    """Backward of maximum/minimum: the winner gets the cotangent, ties split it."""
    def rule(ct, x, y, *, out):
        pick_x = add(cast(compare(x, y), ct.dtype), mul(cast(equal(x, y), ct.dtype), 0.5))
        gx = mul(ct, pick_x)
        return unbroadcast(gx, x.shape), unbroadcast(sub(ct, gx), y.shape)
    return rule


def_backward(maximum_p, uses=(0, 1))(_pick_bwd(greater))
def_backward(minimum_p, uses=(0, 1))(_pick_bwd(less))


@def_backward(atan2_p, uses=(0, 1))
def _atan2_bwd(ct, y, x, *, out):
    scale = div(ct, add(square(x), square(y)))
    return unbroadcast(mul(scale, x), y.shape), unbroadcast(neg(mul(scale, y)), x.shape)


# ---- unary -----------------------------------------------------------------------------

def neg(x):
    """``-x``."""
    return bind(neg_p, *promote("neg", x))


def exp(x):
    """``e ** x``."""
    return bind(exp_p, float_operand(x))


def log(x):
    """Natural logarithm."""
    return bind(log_p, float_operand(x))


def abs(x):
    """``|x|``; the gradient at 0 is 0 (``sign``)."""
    return bind(abs_p, as_operand(x))


def sign(x):
    """-1, 0 or 1 by the sign of ``x`` (zero gradient)."""
    return bind(sign_p, as_operand(x))


def expm1(x):
    """``exp(x) - 1``, accurate for small ``x``."""
    return bind(expm1_p, float_operand(x))


def log1p(x):
    """``log(1 + x)``, accurate for small ``x``."""
    return bind(log1p_p, float_operand(x))


def sqrt(x):
    """Square root."""
    return bind(sqrt_p, float_operand(x))


def rsqrt(x):
    """``1 / sqrt(x)``."""
    return bind(rsqrt_p, float_operand(x))


def square(x):
    """``x * x``; integers stay integers."""
    return bind(square_p, as_operand(x))


def reciprocal(x):
    """``1 / x`` (a float)."""
    return bind(reciprocal_p, float_operand(x))


def sin(x):
    """Sine (radians)."""
    return bind(sin_p, float_operand(x))


def cos(x):
    """Cosine (radians)."""
    return bind(cos_p, float_operand(x))


def _rounding(prim: Primitive, doc: str):
    def op(x):
        x = as_operand(x)
        if x.dtype.kind in _INTEGRAL:  # already whole numbers
            return x
        return bind(prim, x)
    op.__name__ = op.__qualname__ = prim.name
    op.__doc__ = doc + " Integers come back unchanged; the gradient is zero (as in PyTorch)."
    return op


floor = _rounding(floor_p, "The largest whole number ``<= x``.")
ceil = _rounding(ceil_p, "The smallest whole number ``>= x``.")
round = _rounding(round_p, "The nearest whole number, halves to even (like NumPy):"
                           " ``round([0.5, 1.5, 2.5]) == [0, 2, 2]``.")


@def_backward(neg_p, uses=())
def _neg_bwd(ct, x, *, out):
    return (neg(ct),)


@def_backward(exp_p, uses=("out",))
def _exp_bwd(ct, x, *, out):
    return (mul(ct, out),)


@def_backward(log_p, uses=(0,))
def _log_bwd(ct, x, *, out):
    return (div(ct, x),)


@def_backward(abs_p, uses=(0,))
def _abs_bwd(ct, x, *, out):
    return (mul(ct, sign(x)),)


def _zero_bwd(ct, x, *, out):
    return (None,)  # zero gradient: nothing flows back


for _prim in (sign_p, floor_p, ceil_p, round_p):
    def_backward(_prim, uses=())(_zero_bwd)


@def_backward(expm1_p, uses=("out",))
def _expm1_bwd(ct, x, *, out):
    return (mul(ct, add(out, 1.0)),)


@def_backward(log1p_p, uses=(0,))
def _log1p_bwd(ct, x, *, out):
    return (div(ct, add(x, 1.0)),)


@def_backward(sqrt_p, uses=("out",))
def _sqrt_bwd(ct, x, *, out):
    return (div(ct, mul(out, 2.0)),)


@def_backward(rsqrt_p, uses=("out",))
def _rsqrt_bwd(ct, x, *, out):
    return (mul(ct, mul(pow(out, 3), -0.5)),)  # d x^-1/2 = -x^-3/2 / 2


@def_backward(square_p, uses=(0,))
def _square_bwd(ct, x, *, out):
    return (mul(ct, mul(x, 2.0)),)


@def_backward(reciprocal_p, uses=("out",))
def _reciprocal_bwd(ct, x, *, out):
    return (neg(mul(ct, square(out))),)


@def_backward(sin_p, uses=(0,))
def _sin_bwd(ct, x, *, out):
    return (mul(ct, cos(x)),)


@def_backward(cos_p, uses=(0,))
def _cos_bwd(ct, x, *, out):
    return (neg(mul(ct, sin(x))),)
