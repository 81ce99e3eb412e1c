"""Forward mode without forward rules: ``jvp`` as the transpose of the VJP.

The VJP ``ct -> vjp(f, x)[1](ct)`` is linear in ``ct``, and every backward rule is written
with differentiable ops, so differentiating it with respect to ``ct`` (at any ``ct``, zeros
here) and pulling back the tangent ``v`` gives ``J v`` (the "double VJP" trick):

    jvp(f)(x, v) = vjp(lambda ct: vjp(f, x)[1](ct), ct0)[1](v)

No primitive needs a JVP rule; the cost is a forward pass and two backward passes.

    >>> import numpy as np
    >>> from sporeling.compiler import ops
    >>> from sporeling.compiler.autodiff import grad
    >>> f = lambda x: ops.sum(ops.mul(ops.mul(x, x), x))
    >>> jvp(grad(f), (np.array([1.0, 2.0]),), (np.array([1.0, 0.0]),))[1]  # Hessian @ v
    array([6., 0.])
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from sporeling.core import ShapeError, SporelingError

from ..autodiff import vjp
from ..ir import Graph, evaluate, make_graph

__all__ = ["jvp", "jvp_graph"]


def _flat(out) -> tuple[list, bool]:
    return (list(out), True) if isinstance(out, (tuple, list)) else ([out], False)


def jvp(f: Callable, primals, tangents):
    """``(f(*primals), J_f(primals) @ tangents)``: the output and its directional derivative
    along ``tangents`` (one per primal, same shapes). ``f`` returns an array or a tuple of
    arrays; the tangent output has the same structure."""
    primals, tangents = tuple(primals), tuple(tangents)
    if len(primals) != len(tangents):
        raise SporelingError("one tangent per primal", op="jvp",
                             expected=f"{len(primals)} tangents", got=len(tangents))
    for i, (p, t) in enumerate(zip(primals, tangents)):
        if tuple(np.shape(p)) != tuple(np.shape(t)):
            raise ShapeError("tangent and primal differ in shape", op="jvp",
                             expected=tuple(np.shape(p)),
                             got=f"{tuple(np.shape(t))} for argument {i}")
    out, pullback = vjp(f, *primals)
    outs, is_tuple = _flat(out)

    def linear(*cts):  # the VJP, a linear function of the output cotangents
        return tuple(pullback(tuple(cts) if is_tuple else cts[0]))

    zeros = [np.zeros(tuple(o.shape), o.dtype) for o in outs]
    _, transpose = vjp(linear, *zeros)
    tangent_out = transpose(tuple(_like(t, p) for t, p in zip(tangents, primals)))
    return out, (tuple(tangent_out) if is_tuple else tangent_out[0])


def _like(t, p):
    """The tangent in the primal's dtype (the cotangent of the VJP's output)."""
    if getattr(t, "dtype", None) == p.dtype and hasattr(t, "shape"):
        return t
    from ..ops import cast
    from ..ops._util import as_operand
    return cast(as_operand(t), p.dtype)


def jvp_graph(graph: Graph) -> Graph:
    """The graph of ``graph``'s Jacobian-vector product: inputs are ``graph``'s inputs then
    one tangent per input; outputs are ``graph``'s outputs then one tangent per output."""
    n = len(graph.inputs)

    def fn(*flat):
        out, tangent = jvp(lambda *xs: tuple(evaluate(graph, *xs)), flat[:n], flat[n:])
        return list(out), list(tangent)

    new = make_graph(fn, *(graph.in_avals + graph.in_avals), name="jvp",
                     record_source=False)
    new.name = f"jvp({graph.name})"
    return new

