"""Shape and dtype inference: every equation's output avals re-derived from its
primitive's abstract rule (after a pass rewrote operands, a Var's recorded aval may be
stale), then the graph verified. The one pass O0 runs.

    >>> import numpy as np
    >>> from sporeling.compiler import ops
    >>> from sporeling.compiler.ir import make_graph
    >>> g = make_graph(lambda x: ops.exp(x), np.ones(2, np.float32))
    >>> infer_types(g, PassContext()) is g  # already consistent: unchanged
    True
"""
from __future__ import annotations

import numpy as np

from ..core import Aval
from ..ir import Graph, Var, verify
from .base import Pass, PassContext
from .rewrite import Rewriter, map_subgraphs, same_aval

__all__ = ["infer_types", "INFER_TYPES"]


def infer_types(graph: Graph, ctx: PassContext) -> Graph:
    """``graph`` with avals re-derived (new Vars where they differ), verified."""
    rw = Rewriter(graph, ctx)
    for eq in graph.equations:
        params = map_subgraphs(eq.params, lambda g: infer_types(g, ctx))
        new_eq = rw.substituted(eq, params)
        got = new_eq.prim.abstract(*(v.aval for v in new_eq.inputs), **new_eq.params)
        got = got if new_eq.prim.multiple_results else (got,)
        outs = list(new_eq.outputs)
        for i, (v, a) in enumerate(zip(new_eq.outputs, got)):
            if not same_aval(v.aval, a):
                outs[i] = Var(Aval(tuple(a.shape), np.dtype(a.dtype)))
                rw.env[v] = outs[i]  # a retyped value: not a same-type replace()
                ctx.count("infer_types.retyped")
        if outs != new_eq.outputs:
            new_eq = type(new_eq)(new_eq.prim, new_eq.inputs, outs, new_eq.params,
                                  new_eq.source)
        if new_eq is not eq:
            rw.changed = True
        rw.emit(new_eq)
    result = rw.finish()
    verify(result)
    return result


INFER_TYPES = Pass("infer_types", infer_types, stage="canonicalize", min_level="O0", order=0,
                   doc="re-derive shapes and dtypes from the abstract rules; verify")
