"""Recomputation (activation checkpointing) of cheap elementwise values.

A forward value that the backward part reads again much later stays in memory all the way
from forward to backward. When the equation computing it is elementwise (cheap: one pass
over memory) and its operands are alive at the later use anyway (graph inputs, constants,
or values used there or after), the pass computes it a second time right before that use;
the first copy then dies after its early uses. The result is bit-identical (same kernels,
same operands). Off by default: ``set_context(recompute=True)`` turns it on.

Policy: a value of at least :data:`MIN_ELEMENTS` elements whose consecutive uses are
:data:`MIN_GAP` or more equations apart is split once, at the first such gap.

    >>> import numpy as np
    >>> from sporeling.compiler import ops
    >>> from sporeling.compiler.ir import make_graph
    >>> def f(x):
    ...     e = ops.exp(x)
    ...     y = ops.sum(ops.mul(e, 2.0))
    ...     for _ in range(4):
    ...         y = ops.mul(y, 1.5)
    ...     return ops.mul(e, y)
    >>> g = make_graph(f, np.ones((64, 64), np.float32))
    >>> [eq.prim.name for eq in recompute(g, PassContext()).equations].count("exp")
    2
"""
from __future__ import annotations

from ..core import Aval
from ..ir import Const, Equation, Graph, Var
from .base import Pass, PassContext
from .fusion import fusible

__all__ = ["recompute", "RECOMPUTE", "values_live_across", "MIN_ELEMENTS", "MIN_GAP"]

MIN_ELEMENTS = 4096
"""Smaller values are cheaper to keep than to recompute."""
MIN_GAP = 4
"""Uses closer than this many equations are not worth splitting."""


def _uses(graph: Graph) -> dict[Var, list[int]]:
    uses: dict[Var, list[int]] = {}
    for i, eq in enumerate(graph.equations):
        for v in eq.inputs:
            if isinstance(v, Var):
                uses.setdefault(v, []).append(i)
    for v in graph.outputs:
        if isinstance(v, Var):
            uses.setdefault(v, []).append(len(graph.equations))
    return uses


def recompute(graph: Graph, ctx: PassContext) -> Graph:
    """``graph`` with cheap, large, long-lived values recomputed before their late uses."""
    eqs = graph.equations
    uses = _uses(graph)
    last = {v: max(us) for v, us in uses.items()}
    inputs = set(graph.inputs)

    def alive_at(u, b: int) -> bool:
        return isinstance(u, Const) or u in inputs or last.get(u, -1) >= b

    clones: dict[int, list[tuple[Var, Equation]]] = {}  # inserted before this index
    for eq in eqs:
        if not fusible(eq):
            continue
        v = eq.outputs[0]
        if v.aval.size < MIN_ELEMENTS:
            continue
        at = sorted(set(uses.get(v, ())))
        for a, b in zip(at, at[1:]):
            if b - a >= MIN_GAP and b < len(eqs) and all(alive_at(u, b) for u in eq.inputs):
                clone = Var(Aval(tuple(v.aval.shape), v.aval.dtype))
                clones.setdefault(b, []).append(
                    (v, Equation(eq.prim, list(eq.inputs), [clone], eq.params, eq.source)))
                ctx.count("recompute.values")
                break
    if not clones:
        return graph
    env: dict[Var, Var] = {}

    def read(u):
        return env.get(u, u) if isinstance(u, Var) else u

    out: list[Equation] = []
    for i, eq in enumerate(eqs):
        for _, c in clones.get(i, ()):
            out.append(Equation(c.prim, [read(u) for u in c.inputs], c.outputs, c.params,
                                c.source))
        for original, c in clones.get(i, ()):  # from here on, uses read the new value
            env[original] = c.outputs[0]
        out.append(Equation(eq.prim, [read(u) for u in eq.inputs], eq.outputs, eq.params,
                            eq.source))
    return Graph(list(graph.inputs), out, [read(v) for v in graph.outputs], graph.name,
                 dict(graph.meta))


def values_live_across(graph: Graph, index: int, min_size: int = 0) -> list[Var]:
    """Values defined by equations up to ``index`` and read after it (graph outputs
    included) with at least ``min_size`` elements: what a boundary there keeps in memory."""
    uses = _uses(graph)
    return [v for eq in graph.equations[:index + 1] for v in eq.outputs
            if v.aval.size >= min_size and any(u > index for u in uses.get(v, ()))]


RECOMPUTE = Pass("recompute", recompute, stage="cleanup", order=50,
                 enabled=lambda ctx: bool(ctx.options.get("recompute")),
                 doc="recompute cheap elementwise values before late uses (recompute=True)")
