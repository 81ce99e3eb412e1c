"""Activations and the error function: float elementwise primitives whose kernels stay
finite for any input (sigmoid, softplus, gelu... at +-1e4 give no overflow and no NaN).

    >>> import numpy as np
    >>> sigmoid(np.array([-1e4, 0.0, 1e4], np.float32))
    array([0. , 0.5, 1. ], dtype=float32)
"""
from __future__ import annotations

import math

from sporeling.core import SporelingError

from ..core import Aval, Primitive, bind, def_backward
from ._util import check_float, elementwise_aval, float_operand, promote
from .comparison import greater, where
from .elementwise import add, exp, mul, neg, square, sub

__all__ = ["relu", "leaky_relu", "tanh", "sigmoid", "silu", "gelu", "softplus", "erf"]


def _unary(name: str, **traits) -> Primitive:
    prim = Primitive(name, elementwise=True, fusible=True, **traits)
    prim.def_abstract_eval(lambda x, **params: Aval(tuple(x.shape), x.dtype))
    return prim


(relu_p, leaky_relu_p, sigmoid_p, silu_p, gelu_p) = map(_unary, (
    "relu", "leaky_relu", "sigmoid", "silu", "gelu"))
tanh_p = _unary("tanh", core=True)
softplus_p, erf_p = _unary("softplus", amp="black"), _unary("erf", amp="black", core=True)

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
_INV_SQRT_2 = 1.0 / math.sqrt(2.0)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
_GELU_CUBIC = 0.044715


def relu(x):
    """``max(x, 0)``; the gradient at 0 is 0, as in PyTorch and MindSpore. Ints stay ints."""
    return bind(relu_p, *promote("relu", x))


def leaky_relu(x, alpha=0.01):
    """``x`` where positive, else ``alpha * x``."""
    return bind(leaky_relu_p, float_operand(x), alpha=check_float(alpha, "alpha", op="leaky_relu"))


def tanh(x):
    """Hyperbolic tangent."""
    return bind(tanh_p, float_operand(x))


def sigmoid(x):
    """``1 / (1 + exp(-x))``, computed without overflow."""
    return bind(sigmoid_p, float_operand(x))


def silu(x):
    """``x * sigmoid(x)`` (also called swish)."""
    return bind(silu_p, float_operand(x))


def gelu(x, approximate="none"):
    """``x * Phi(x)`` with ``Phi`` the normal CDF; ``approximate="tanh"`` uses
    ``0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))`` (both as in PyTorch).

        >>> import numpy as np
        >>> gelu(np.array([0.0, 1.0])).round(4)
        array([0.    , 0.8413])
    """
    if approximate not in ("none", "tanh"):
        raise SporelingError("unknown approximation", op="gelu",
                             expected='"none" or "tanh"', got=repr(approximate))
    return bind(gelu_p, float_operand(x), approximate=approximate)


def softplus(x, beta=1.0, threshold=20.0):
    """``log(1 + exp(beta * x)) / beta``, and ``x`` itself where ``beta * x > threshold``
    (PyTorch's definition). Stable for any ``x``."""
    return bind(softplus_p, float_operand(x), beta=check_float(beta, "beta", op="softplus"),
                threshold=check_float(threshold, "threshold", op="softplus"))


def erf(x):
    """The error function ``2/sqrt(pi) * integral_0^x exp(-t^2) dt``."""
    return bind(erf_p, float_operand(x))


@def_backward(relu_p, uses=("out",))
def _relu_bwd(ct, x, *, out):
    return (bind(relu_grad_p, out, ct),)


@def_backward(leaky_relu_p, uses=(0,))
def _leaky_relu_bwd(ct, x, *, out, alpha):
    return (where(greater(x, 0.0), ct, mul(ct, alpha)),)


@def_backward(tanh_p, uses=("out",))
def _tanh_bwd(ct, x, *, out):
    return (bind(tanh_grad_p, out, ct),)


@def_backward(sigmoid_p, uses=("out",))
def _sigmoid_bwd(ct, x, *, out):
    return (bind(sigmoid_grad_p, out, ct),)


# ---- fused backward primitives ---------------------------------------------------------
# ``op_grad(out, ct)``: the backward of relu, tanh and sigmoid from the forward output, as one
# kernel instead of three (each kernel costs more dispatch than arithmetic on small tensors;
# on large ones it saves two passes over memory). Their own rules are written with ops, so
# grad of grad still works.

relu_grad_p, tanh_grad_p, sigmoid_grad_p = (Primitive(n, elementwise=True, fusible=True) for n in (
    "relu_grad", "tanh_grad", "sigmoid_grad"))
for _prim in (relu_grad_p, tanh_grad_p, sigmoid_grad_p):
    _prim.def_abstract_eval(elementwise_aval(_prim.name))


@def_backward(relu_grad_p, uses=(0,), selective=True)
def _relu_grad_bwd(ct, y, g, *, out, needs):
    # ct * (y > 0): piecewise constant in y, linear in g
    return None, bind(relu_grad_p, y, ct) if needs[1] else None


@def_backward(tanh_grad_p, uses=(0, 1), selective=True)
def _tanh_grad_bwd(ct, y, g, *, out, needs):
    # g (1 - y^2): d/dy = -2 y g, d/dg = 1 - y^2
    return (mul(ct, mul(mul(y, g), -2.0)) if needs[0] else None,
            bind(tanh_grad_p, y, ct) if needs[1] else None)


@def_backward(sigmoid_grad_p, uses=(0, 1), selective=True)
def _sigmoid_grad_bwd(ct, y, g, *, out, needs):
    # g y (1 - y): d/dy = g (1 - 2 y), d/dg = y (1 - y)
    return (mul(ct, mul(g, sub(1.0, mul(y, 2.0)))) if needs[0] else None,
            bind(sigmoid_grad_p, y, ct) if needs[1] else None)


@def_backward(silu_p, uses=(0,))
def _silu_bwd(ct, x, *, out):
    s = sigmoid(x)  # d/dx x s(x) = s (1 + x (1 - s))
    return (mul(ct, mul(s, add(mul(x, sub(1.0, s)), 1.0))),)


@def_backward(gelu_p, uses=(0,))
def _gelu_bwd(ct, x, *, out, approximate):
    if approximate == "tanh":
        x2 = square(x)
        t = tanh(mul(x, add(mul(x2, _SQRT_2_OVER_PI * _GELU_CUBIC), _SQRT_2_OVER_PI)))
        dinner = add(mul(x2, 3 * _SQRT_2_OVER_PI * _GELU_CUBIC), _SQRT_2_OVER_PI)
        # 0.5 (1 + t) + 0.5 x (1 - t^2) d(inner)/dx
        d = mul(add(add(t, 1.0), mul(mul(x, sub(1.0, square(t))), dinner)), 0.5)
        return (mul(ct, d),)
    cdf = mul(add(erf(mul(x, _INV_SQRT_2)), 1.0), 0.5)
    pdf = mul(exp(mul(square(x), -0.5)), _INV_SQRT_2PI)
    return (mul(ct, add(cdf, mul(x, pdf))),)


@def_backward(softplus_p, uses=(0,))
def _softplus_bwd(ct, x, *, out, beta, threshold):
    z = mul(x, beta) if beta != 1.0 else x
    return (mul(ct, where(greater(z, threshold), 1.0, sigmoid(z))),)


@def_backward(erf_p, uses=(0,))
def _erf_bwd(ct, x, *, out):
    return (mul(ct, mul(exp(neg(square(x))), _TWO_OVER_SQRT_PI)),)
