"""Dead-code elimination: the IR is pure, so an equation is needed only if a graph output
depends on it (side effects are extra outputs). Sub-graphs keep all their outputs (their
callers' interface) and lose their own dead equations.

    >>> import numpy as np
    >>> from sporeling.compiler import ops
    >>> from sporeling.compiler.ir import make_graph
    >>> g = make_graph(lambda x: (ops.exp(x), ops.log(x))[0], np.ones(2, np.float32))
    >>> [eq.prim.name for eq in eliminate_dead_code(g, PassContext()).equations]
    ['exp']
"""
from __future__ import annotations

from ..ir import Equation, Graph, Var
from .base import Pass, PassContext
from .rewrite import map_subgraphs

__all__ = ["eliminate_dead_code", "DCE"]


def eliminate_dead_code(graph: Graph, ctx: PassContext) -> Graph:
    """``graph`` without the equations no output depends on."""
    live = {v for v in graph.outputs if isinstance(v, Var)}
    kept: list[Equation] = []
    changed = False
    for eq in reversed(graph.equations):
        if not any(v in live for v in eq.outputs):
            changed = True
            ctx.count("dce.removed")
            continue
        params = map_subgraphs(eq.params, lambda g: eliminate_dead_code(g, ctx))
        if params is not eq.params:
            eq = Equation(eq.prim, eq.inputs, eq.outputs, params, eq.source)
            changed = True
        kept.append(eq)
        live.update(v for v in eq.inputs if isinstance(v, Var))
    if not changed:
        return graph
    kept.reverse()
    return Graph(list(graph.inputs), kept, list(graph.outputs), graph.name, dict(graph.meta))


DCE = Pass("dce", eliminate_dead_code, stage="simplify", order=90,
           doc="remove equations no output depends on")
