"""clip: values limited to a range. Number bounds are parameters (``clip_scalar``: one
mask in the backward, no bound gradients); tensor bounds are operands (``clip``), and get
their gradients.

    >>> import numpy as np
    >>> clip(np.array([1, 5, 9]), 2, 6)
    array([2, 5, 6])
"""
from __future__ import annotations

from sporeling.core import SporelingError

from ..core import Aval, Primitive, bind, def_backward
from ._util import as_operand, broadcast_shapes, float_operand, promote, same_dtype, unbroadcast
from .comparison import (equal, greater, greater_equal, less, less_equal, logical_and,
                         logical_or)
from .dtype import cast
from .elementwise import _INTEGRAL, _unary, mul

__all__ = ["clip"]


clip_p, clip_scalar_p = Primitive("clip", elementwise=True), _unary("clip_scalar", fusible=True)
_NUMBER = (int, float)


@clip_p.def_abstract_eval
def _clip_aval(x, *bounds, has_min, has_max):
    return Aval(broadcast_shapes("clip", x.shape, *(b.shape for b in bounds)),
                same_dtype("clip", x, *bounds))


def clip(x, min=None, max=None):
    """``x`` limited to ``[min, max]``; each bound is None, a number or a broadcasting
    tensor. As in NumPy, ``min > max`` gives ``max``. The gradient goes to ``x`` inside the
    range (bounds included) and to the bound that is active outside it.

        >>> import numpy as np
        >>> clip(np.array([-2.0, 0.5, 3.0]), -1.0, 1.0)
        array([-1. ,  0.5,  1. ])
    """
    if min is None and max is None:
        raise SporelingError("clip needs a bound", op="clip",
                             expected="min or max (or both)", got="neither")
    if (min is None or type(min) in _NUMBER) and (max is None or type(max) in _NUMBER):
        x = as_operand(x)
        if x.dtype.kind in _INTEGRAL and (type(min) is float or type(max) is float):
            x = float_operand(x)
        return bind(clip_scalar_p, x, min=min, max=max)
    bounds = [b for b in (min, max) if b is not None]
    x, *bounds = promote("clip", x, *bounds)
    return bind(clip_p, x, *bounds, has_min=min is not None, has_max=max is not None)


@def_backward(clip_scalar_p, uses=(0, "out"))
def _clip_scalar_bwd(ct, x, *, out, min, max):
    return (mul(ct, cast(equal(out, x), ct.dtype)),)  # out == x: inside [min, max]


@def_backward(clip_p, uses=(0, 1, 2))
def _clip_bwd(ct, x, *bounds, out, has_min, has_max):
    def masked(mask, shape):
        return unbroadcast(mul(ct, cast(mask, ct.dtype)), shape)

    if has_min and has_max:
        lo, hi = bounds
        return (masked(logical_and(greater_equal(x, lo), less_equal(x, hi)), x.shape),
                masked(logical_and(less(x, lo), less_equal(lo, hi)), lo.shape),
                masked(logical_or(greater(x, hi), greater(lo, hi)), hi.shape))
    (bound,) = bounds
    if has_min:
        return masked(greater_equal(x, bound), x.shape), masked(less(x, bound), bound.shape)
    return masked(less_equal(x, bound), x.shape), masked(greater(x, bound), bound.shape)

