"""Constant folding: an equation whose operands are all Consts, with a small result, is
computed now and becomes a Const. Random primitives are not folded (each run draws anew),
nor are primitives holding sub-graphs.

    >>> import numpy as np
    >>> from sporeling.compiler import ops
    >>> from sporeling.compiler.ir import make_graph
    >>> w = np.array([4.0, 9.0], np.float32)
    >>> g = make_graph(lambda x: ops.mul(x, ops.sqrt(w)), np.ones(2, np.float32))
    >>> fold_constants(g, PassContext()).primitive_counts()
    {'mul': 1}
"""
from __future__ import annotations

import numpy as np

from ..core import bind
from ..ir import Const, Equation, Graph
from .base import Pass, PassContext
from .cse import is_nondeterministic
from .rewrite import Rewriter, rewrite

__all__ = ["fold_constants", "FOLD", "MAX_FOLDED_SIZE"]

MAX_FOLDED_SIZE = 1 << 16
"""Largest result (in elements) baked into the graph; bigger ones stay computed at run time
(a folded Const is memory held for the graph's lifetime)."""


def _foldable(eq: Equation) -> bool:
    if is_nondeterministic(eq.prim) or any(isinstance(p, Graph) for p in eq.params.values()):
        return False
    if not all(isinstance(v, Const) for v in eq.inputs):
        return False
    return all(v.aval.size <= MAX_FOLDED_SIZE for v in eq.outputs)


def fold_constants(graph: Graph, ctx: PassContext) -> Graph:
    """``graph`` with all-constant equations replaced by their (small) values."""
    def rule(eq: Equation, rw: Rewriter):
        if not _foldable(eq):
            return None
        out = bind(eq.prim, *(v.value for v in eq.inputs), **eq.params)
        outs = out if eq.prim.multiple_results else (out,)
        # own copies: kernel results live in pool memory the graph must not pin
        consts = [Const(np.array(o, dtype=v.aval.dtype, copy=True))
                  for o, v in zip(outs, eq.outputs)]
        ctx.count("fold.folded")
        return consts if eq.prim.multiple_results else consts[0]

    return rewrite(graph, rule, ctx)


FOLD = Pass("fold_constants", fold_constants, stage="simplify", order=10,
            doc="compute equations whose operands are all constants")
