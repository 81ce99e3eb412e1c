"""Elementwise fusion: chains of elementwise (and broadcast) equations become one
``fused_elementwise`` equation, so the chain runs as one kernel with reused buffers instead
of one kernel and one fresh buffer per step.

Which primitives may join is their ``fusible`` trait, declared where each is defined
(``Primitive("exp", elementwise=True, fusible=True)``), plugins' primitives alike.
A value joins its consumer's group only when that consumer is its only user and it is not a
graph output -- otherwise it must exist in memory anyway. Groups of one stay as they are.

    >>> import numpy as np
    >>> from sporeling.compiler import ops
    >>> from sporeling.compiler.ir import make_graph
    >>> g = make_graph(lambda x, y: ops.exp(ops.add(ops.mul(x, 2.0), y)),
    ...                np.ones(3, np.float32), np.ones(3, np.float32))
    >>> fuse_elementwise(g, PassContext()).primitive_counts()
    {'fused_elementwise': 1}
"""
from __future__ import annotations

from ..ir import Const, Equation, Graph, Var
from .base import Pass, PassContext
from .fused import fused_elementwise_p
from .rewrite import map_subgraphs

__all__ = ["fusible", "fuse_elementwise", "FUSION"]

def fusible(eq: Equation) -> bool:
    """Whether ``eq`` may join a fused chain: its primitive is declared ``fusible=True``
    (elementwise with broadcasting, its kernel writes ``out=``)."""
    return eq.prim.fusible


def _groups(graph: Graph) -> dict[int, list[int]]:
    """Root equation index -> indices of the equations it absorbs (itself included)."""
    uses = graph.use_counts()
    open_group: dict[Var, list[int]] = {}  # a group's root output -> its members
    groups: dict[int, list[int]] = {}
    for i, eq in enumerate(graph.equations):
        if not fusible(eq):
            continue
        members = [i]
        for v in dict.fromkeys(v for v in eq.inputs if isinstance(v, Var)):
            inner = open_group.get(v)
            if inner is not None and uses[v] == 1:
                members += inner
                del open_group[v]
                groups.pop(inner[-1], None)  # members are sorted: the last is its root
        members.sort()
        open_group[eq.outputs[0]] = members
        groups[i] = members
    return {root: m for root, m in groups.items() if len(m) > 1}


def _flatten_member(eq: Equation, ref, node_of: dict, nodes: list) -> None:
    """Append ``eq``'s node(s) to ``nodes`` (a nested fused equation contributes its own)."""
    if eq.prim is fused_elementwise_p:
        base = len(nodes)
        for name, refs, params, shape, dtype in eq.params["expr"]:
            nodes.append((name, tuple(ref(eq.inputs[r[1]]) if r[0] == "in" else
                                      ("node", base + r[1]) if r[0] == "node" else r
                                      for r in refs), params, shape, dtype))
    else:
        out = eq.outputs[0].aval
        nodes.append((eq.prim.name, tuple(ref(v) for v in eq.inputs),
                      tuple(sorted(eq.params.items())), tuple(out.shape), out.dtype))
    node_of[eq.outputs[0]] = len(nodes) - 1


def _fused_equation(eqs: list[Equation]) -> Equation:
    node_of: dict[Var, int] = {}
    external: dict[int, tuple[int, object]] = {}  # id(value) -> (input index, value)
    nodes: list = []

    def ref(v):
        if isinstance(v, Var) and v in node_of:
            return ("node", node_of[v])
        if isinstance(v, Const) and v.value.ndim == 0:
            return ("const", v.value.item(), v.value.dtype)
        if id(v) not in external:
            external[id(v)] = (len(external), v)
        return ("in", external[id(v)][0])

    for eq in eqs:
        _flatten_member(eq, ref, node_of, nodes)
    root = eqs[-1]
    inputs = [v for _, v in sorted(external.values(), key=lambda t: t[0])]
    return Equation(fused_elementwise_p, inputs, list(root.outputs), {"expr": tuple(nodes)},
                    root.source)


def fuse_elementwise(graph: Graph, ctx: PassContext) -> Graph:
    """``graph`` with elementwise chains fused (inside sub-graphs too)."""
    groups = _groups(graph)
    absorbed = {i for members in groups.values() for i in members[:-1]}
    equations: list[Equation] = []
    changed = bool(groups)
    for i, eq in enumerate(graph.equations):
        if i in absorbed:
            continue
        if i in groups:
            eq = _fused_equation([graph.equations[j] for j in groups[i]])
            ctx.count("fusion.groups")
            ctx.count("fusion.fused_equations", len(groups[i]))
        else:
            params = map_subgraphs(eq.params, lambda g: fuse_elementwise(g, ctx))
            if params is not eq.params:
                eq = Equation(eq.prim, eq.inputs, eq.outputs, params, eq.source)
                changed = True
        equations.append(eq)
    if not changed:
        return graph
    return Graph(list(graph.inputs), equations, list(graph.outputs), graph.name,
                 dict(graph.meta))


FUSION = Pass("fuse_elementwise", fuse_elementwise, stage="fusion", order=50,
              doc="fuse chains of elementwise equations into fused_elementwise")
