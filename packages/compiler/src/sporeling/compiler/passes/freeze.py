"""Turning graph inputs into constants (inference: parameters that will not change), so
constant folding and passes such as batch-norm folding can see their values."""
from __future__ import annotations

from ..ir import Const, Graph, IRError
from .rewrite import Rewriter

__all__ = ["freeze_inputs"]


def freeze_inputs(graph: Graph, values: dict[int, object]) -> Graph:
    """``graph`` with the inputs at the given indices replaced by Consts of ``values``
    (those inputs are no longer passed).

        >>> import numpy as np
        >>> from sporeling.compiler import ops
        >>> from sporeling.compiler.ir import evaluate, make_graph
        >>> g = make_graph(ops.mul, np.ones(2, np.float32), np.ones(2, np.float32))
        >>> evaluate(freeze_inputs(g, {1: np.float32([2, 3])}), np.float32([1, 1]))
        [array([2., 3.], dtype=float32)]
    """
    rw = Rewriter(graph)
    for i, value in values.items():
        v = graph.inputs[i]
        c = Const(value)
        if tuple(c.aval.shape) != tuple(v.aval.shape) or c.aval.dtype != v.aval.dtype:
            raise IRError("a frozen value does not match its input", where=graph.name,
                          expected=f"input {i}: {v.aval}", got=str(c.aval))
        rw.replace(v, c)
    for eq in graph.equations:
        rw.emit(rw.substituted(eq))
    kept = [v for i, v in enumerate(graph.inputs) if i not in values]
    out = Graph(kept, rw.equations, [rw.read(v) for v in graph.outputs], graph.name,
                dict(graph.meta))
    out.meta.pop("in_tree", None)  # the flat inputs changed: the old structure no longer fits
    return out
