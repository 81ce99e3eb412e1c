"""softmax and log_softmax along one axis, computed from ``x - max(x)`` so that logits of
any size (``±1e4`` included) give no overflow, NaN or infinity.

Both backward rules read only the output: ``softmax``'s is ``y * (ct - sum(ct * y))`` and
``log_softmax``'s ``ct - exp(y) * sum(ct)``, written with ops so they differentiate again.
"""
from __future__ import annotations

from ...core import Aval, Primitive, bind, def_backward
from ...core.sharding import OpDims, def_sharding_rule, labels, norm_axes, shape_of
from .._batching import shift_axis
from .._util import check_axes, float_operand

__all__ = ["softmax", "log_softmax"]

softmax_p = Primitive("softmax", amp="black")
log_softmax_p = Primitive("log_softmax", amp="black")


def _same_aval(x, *, axis):
    return Aval(tuple(x.shape), x.dtype)


softmax_p.def_abstract_eval(_same_aval)
log_softmax_p.def_abstract_eval(_same_aval)


@def_backward(softmax_p, uses=("out",))
def _softmax_bwd(ct, x, *, out, axis):
    from ..elementwise import mul, sub
    from ..reduction import sum
    return (mul(out, sub(ct, sum(mul(ct, out), axis, keepdims=True))),)


@def_backward(log_softmax_p, uses=("out",))
def _log_softmax_bwd(ct, x, *, out, axis):
    from ..elementwise import exp, mul, sub
    from ..reduction import sum
    return (sub(ct, mul(exp(out), sum(ct, axis, keepdims=True))),)


def _axis(op, x, axis):
    return check_axes(op, axis, len(x.shape))[0]


def softmax(x, axis=-1):
    """``exp(x) / sum(exp(x))`` along ``axis``.

        >>> import numpy as np
        >>> softmax(np.array([0.0, 1e4, -1e4], np.float32))
        array([0., 1., 0.], dtype=float32)
    """
    x = float_operand(x)
    return bind(softmax_p, x, axis=_axis("softmax", x, axis))


def log_softmax(x, axis=-1):
    """``x - log(sum(exp(x)))`` along ``axis``, without overflow.

        >>> import numpy as np
        >>> log_softmax(np.array([0.0, 1e4], np.float32))
        array([-10000.,      0.], dtype=float32)
    """
    x = float_operand(x)
    return bind(log_softmax_p, x, axis=_axis("log_softmax", x, axis))


def _softmax_batching(prim):
    def rule(args, dims, *, axis):
        (x,), (d,) = args, dims  # the batch axis stays; the softmax axis moves past it
        return bind(prim, x, axis=shift_axis(axis, d)), d
    return rule


softmax_p.def_batching(_softmax_batching(softmax_p))
log_softmax_p.def_batching(_softmax_batching(log_softmax_p))


@def_sharding_rule(softmax_p, log_softmax_p)
def _softmax_sharding(eq):
    """The softmax axis stays whole; the others split."""
    shape = shape_of(eq.inputs[0])
    names = labels(len(shape))
    return OpDims([names], [names], {names[a] for a in norm_axes(eq.params.get("axis", -1),
                                                                  len(shape))})
