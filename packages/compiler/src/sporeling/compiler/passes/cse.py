"""Common-subexpression elimination: two equations applying the same primitive to the same
operands with equal parameters compute the same value -- except random primitives, whose
every application is a fresh draw by intent (see :func:`is_nondeterministic`).

    >>> import numpy as np
    >>> from sporeling.compiler import ops
    >>> from sporeling.compiler.ir import make_graph
    >>> g = make_graph(lambda x: ops.add(ops.exp(x), ops.exp(x)), np.ones(2, np.float32))
    >>> eliminate_common_subexpressions(g, PassContext()).primitive_counts()
    {'exp': 1, 'add': 1}
"""
from __future__ import annotations

from ..core.primitive import Primitive
from ..ir import Const, Equation, Graph
from .base import Pass, PassContext
from .rewrite import Rewriter, rewrite

__all__ = ["is_nondeterministic", "eliminate_common_subexpressions", "CSE", "const_key"]

_SMALL = 64  # Consts up to this many elements compare by value, larger ones by identity


def is_nondeterministic(prim: Primitive) -> bool:
    """Whether two applications of ``prim`` may differ (random draws): the primitive's
    ``nondeterministic`` trait, declared where it is defined (``Primitive(...,
    nondeterministic=True)``), by the core and by plugins alike."""
    return prim.nondeterministic


def const_key(c: Const):
    """A hashable stand-in for a Const: its bytes when small, its identity otherwise."""
    if c.value.size <= _SMALL:
        return ("const", c.value.dtype.str, c.value.shape, c.value.tobytes())
    return ("const-id", id(c))


def _key(eq: Equation):
    operands = tuple(const_key(v) if isinstance(v, Const) else v for v in eq.inputs)
    try:
        params = tuple(sorted(eq.params.items()))
        hash(params)
    except TypeError:  # an unhashable parameter: never merged
        return None
    return eq.prim.name, operands, params


def eliminate_common_subexpressions(graph: Graph, ctx: PassContext) -> Graph:
    """``graph`` with repeated computations replaced by their first occurrence."""
    seen: dict = {}

    def rule(eq: Equation, rw: Rewriter):
        if is_nondeterministic(eq.prim):
            return None
        key = _key(eq)
        if key is None:
            return None
        first = seen.get(key)
        if first is None:
            seen[key] = eq
            return None
        ctx.count("cse.merged")
        return first.outputs if eq.prim.multiple_results else first.outputs[0]

    return rewrite(graph, rule, ctx, recurse=False)


CSE = Pass("cse", eliminate_common_subexpressions, stage="simplify", order=15,
           doc="merge equations that compute the same value (random ones excepted)")
