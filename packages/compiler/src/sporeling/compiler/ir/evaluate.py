"""Running a graph by binding its equations again -- on arrays (a reference executor) or on
any other interpreter's values, which is how transformations (grad, vjp) act on graphs.
Equations of fresh primitives (``rng_seed``: no operands, a new value each time) go to the
innermost trace of the interpreter stack like any ``bind`` without operands, so re-tracing a
graph keeps them equations of the new graph instead of freezing one draw into a constant."""
from __future__ import annotations

from ..core import bind
from .graph import Const, Graph

__all__ = ["evaluate"]


def evaluate(graph: Graph, *args):
    """The graph's flat outputs for flat inputs ``args`` (captured values included)."""
    if len(args) != len(graph.inputs):
        from sporeling.core import SporelingError
        raise SporelingError("wrong number of graph inputs", op=graph.name,
                             expected=len(graph.inputs), got=len(args))
    env = dict(zip(graph.inputs, args))

    def read(v):
        return v.value if isinstance(v, Const) else env[v]

    for eq in graph.equations:
        out = bind(eq.prim, *(read(v) for v in eq.inputs), **eq.params)
        if eq.prim.multiple_results:
            env.update(zip(eq.outputs, out))
        else:
            env[eq.outputs[0]] = out
    return [read(v) for v in graph.outputs]
