"""The ``fused_reduce`` primitive: a sum or mean over some axes of an elementwise chain, one
equation, so the chain's value is computed where it is summed and never stored.

``fused_reduce(*inputs; expr, reduce, axis, keepdims)``: ``expr`` is ``fused_elementwise``'s
chain on ``inputs`` (empty: the first input itself), ``reduce`` ``"sum"`` or ``"mean"``,
``axis`` a sorted tuple, ``keepdims`` a bool. Only the ``fuse_reductions`` pass
(:mod:`.reduce_pass`) writes it, after autodiff, in graphs lowered on this backend: it has no
backward rule. A backend without its kernel runs the decomposition -- the chain, then the
reduction -- which is also what the kernel hands to the providers below when TVM does not
generate one.
"""
from __future__ import annotations

from sporeling.compiler import Primitive, bind, primitives

__all__ = ["fused_reduce_p", "REDUCTIONS"]

REDUCTIONS = ("sum", "mean")

fused_reduce_p = Primitive("fused_reduce", differentiable=False,
                           doc="a sum or mean over axes of an elementwise chain (the TVM "
                               "backend's fuse_reductions pass)")


def _value(inputs, expr):
    if not expr:
        return inputs[0]
    return bind(primitives()["fused_elementwise"], *inputs, expr=expr)


@fused_reduce_p.def_abstract_eval
def _aval(*avals, expr, reduce, axis, keepdims):
    value = primitives()["fused_elementwise"].abstract(*avals, expr=expr) if expr else avals[0]
    return primitives()[reduce].abstract(value, axis=axis, keepdims=keepdims)


fused_reduce_p.def_decomposition(
    lambda *inputs, expr, reduce, axis, keepdims:
    bind(primitives()[reduce], _value(inputs, expr), axis=axis, keepdims=keepdims))
