"""Elementwise fusion: chains of elementwise (and broadcast) equations become one
``fused_elementwise`` equation, so the chain runs as one kernel with reused buffers instead
of one kernel and one fresh buffer per step.

Which primitives may join is their ``fusible`` trait, declared where each is defined
(``Primitive("exp", elementwise=True, fusible=True)``), plugins' primitives alike.
A value joins its consumer's group when that consumer is its only user and it is not a
graph output -- otherwise it must exist in memory anyway. Groups of one stay as they are,
unless the backend generates them (a one-node chain is one pass where NumPy's kernel may
take several).

On a backend whose chains are generated loops (``Backend.recomputes_in_fusion``: the TVM
backend), a value read by several fusible consumers of its own size joins each of them
instead -- computed again in each loop, never stored -- so a forward and backward of
elementwise ops sharing values (``tanh`` and its gradient...) become one loop rather than
one kernel per shared value; a chain stops taking in producers at
:data:`_MAX_RECOMPUTED_GROUP` equations.

    >>> import numpy as np
    >>> from sporeling.compiler import ops
    >>> from sporeling.compiler.ir import make_graph
    >>> g = make_graph(lambda x, y: ops.exp(ops.add(ops.mul(x, 2.0), y)),
    ...                np.ones(3, np.float32), np.ones(3, np.float32))
    >>> fuse_elementwise(g, PassContext()).primitive_counts()
    {'fused_elementwise': 1}
"""
from __future__ import annotations

import math

from ..ir import Const, Equation, Graph, Var
from .base import Pass, PassContext
from .fused import fused_elementwise_p
from .rewrite import map_subgraphs

__all__ = ["fusible", "fuse_elementwise", "fused_equation", "FUSION"]

def fusible(eq: Equation) -> bool:
    """Whether ``eq`` may join a fused chain: its primitive is declared ``fusible=True``
    (elementwise with broadcasting, its kernel writes ``out=``)."""
    return eq.prim.fusible


_MAX_RECOMPUTED_GROUP = 64
"""Equations (nodes) a chain may reach by absorbing recomputed producers."""


def _size(v) -> int:
    return math.prod(v.aval.shape)


def _recomputable(graph: Graph, recomputes) -> set:
    """The values a chain may compute again instead of reading: every reader is a fusible
    equation with an output of the value's size (no value is recomputed per broadcast
    element), the value is not a graph output, and ``recomputes`` (the backend's say, by
    primitive) allows its producer."""
    if recomputes is None:
        return set()
    readers: dict[Var, list[Equation]] = {}
    for eq in graph.equations:
        for v in dict.fromkeys(v for v in eq.inputs if isinstance(v, Var)):
            readers.setdefault(v, []).append(eq)
    outputs = {v for v in graph.outputs if isinstance(v, Var)}
    shared = set()
    for eq in graph.equations:
        if not fusible(eq) or not _recomputed(eq, recomputes):
            continue
        v = eq.outputs[0]
        users = readers.get(v, ())
        if len(users) > 1 and v not in outputs and all(
                fusible(u) and _size(u.outputs[0]) == _size(v) for u in users):
            shared.add(v)
    return shared


def _recomputed(eq: Equation, recomputes) -> bool:
    if eq.prim is fused_elementwise_p:
        return all(recomputes(node[0]) for node in eq.params["expr"])
    return recomputes(eq.prim.name)


def _groups(graph: Graph, recomputes=None) -> tuple[dict[int, list[int]], set[int]]:
    """``(groups, dropped)``: root equation index -> indices of the equations its chain
    computes (itself included), and the equations no longer run on their own. A value with
    one reader joins that reader's chain; a :func:`_recomputable` one joins every reader's
    chain, and is still stored if some reader did not take it in."""
    uses = graph.use_counts()
    shared = _recomputable(graph, recomputes)
    open_group: dict[Var, list[int]] = {}  # a chain's root output -> its members
    groups: dict[int, list[int]] = {}
    taken: dict[Var, int] = {}  # value -> how many of its reads a chain took in
    for i, eq in enumerate(graph.equations):
        if not fusible(eq):
            continue
        members = {i}
        for v in dict.fromkeys(v for v in eq.inputs if isinstance(v, Var)):
            inner = open_group.get(v)
            if inner is None or not (uses[v] == 1 or v in shared and
                                     len(members.union(inner)) <= _MAX_RECOMPUTED_GROUP):
                continue
            members.update(inner)
            taken[v] = taken.get(v, 0) + sum(1 for u in eq.inputs if u is v)
        open_group[eq.outputs[0]] = groups[i] = sorted(members)
    dropped = {i for i in groups if taken.get(graph.equations[i].outputs[0], 0) ==
               uses.get(graph.equations[i].outputs[0], 0) > 0}
    # a group of one stays as it is, unless the backend generates it: its loop is one pass
    # where NumPy's kernel may take several (relu_grad's where: 55 -> 12 us on LeNet)
    return {root: m for root, m in groups.items() if root not in dropped and (
        len(m) > 1 or recomputes is not None and _recomputed(graph.equations[root], recomputes))
    }, dropped


def _flatten_member(eq: Equation, ref, node_of: dict, nodes: list) -> None:
    """Append ``eq``'s node(s) to ``nodes`` (a nested fused equation contributes its own)."""
    if eq.prim is fused_elementwise_p:
        moved = []  # its node j -> index in nodes (ref may add nodes in between)
        for name, refs, params, shape, dtype in eq.params["expr"]:
            operands = tuple(ref(eq.inputs[r[1]]) if r[0] == "in" else
                             ("node", moved[r[1]]) if r[0] == "node" else r for r in refs)
            nodes.append((name, operands, params, shape, dtype))
            moved.append(len(nodes) - 1)
    else:
        out = eq.outputs[0].aval
        nodes.append((eq.prim.name, tuple(ref(v) for v in eq.inputs),
                      tuple(sorted(eq.params.items())), tuple(out.shape), out.dtype))
    node_of[eq.outputs[0]] = len(nodes) - 1


def fused_equation(eqs: list[Equation]) -> Equation:
    """One ``fused_elementwise`` equation computing ``eqs`` (fusible, in order; the last
    one's output is its result; fused ones contribute their nodes)."""
    node_of: dict[Var, int] = {}
    external: dict[int, tuple[int, object]] = {}  # id(value) -> (input index, value)
    nodes: list = []

    def ref(v):
        if isinstance(v, Var) and v in node_of:
            return ("node", node_of[v])
        if isinstance(v, Const) and v.value.ndim == 0:
            return ("const", v.value.item(), v.value.dtype)
        if isinstance(v, Const) and v.value.size and not any(v.value.strides):
            # a scalar broadcast (a gradient's ones): the scalar and a broadcast node, not
            # an input array read (and copied: it is strided) on every call
            value = v.value
            nodes.append(("broadcast_to", (("const", value.reshape(-1)[0].item(), value.dtype),),
                          (("shape", value.shape),), value.shape, value.dtype))
            return ("node", len(nodes) - 1)
        if id(v) not in external:
            external[id(v)] = (len(external), v)
        return ("in", external[id(v)][0])

    for eq in eqs:
        _flatten_member(eq, ref, node_of, nodes)
    root = eqs[-1]
    inputs = [v for _, v in sorted(external.values(), key=lambda t: t[0])]
    return Equation(fused_elementwise_p, inputs, list(root.outputs), {"expr": tuple(nodes)},
                    root.source)


def _recompute_rule(ctx: PassContext):
    """The lowering backend's ``recomputes_in_fusion`` (None: it recomputes nothing)."""
    from sporeling.runtime import Backend
    backend = ctx.lowering_backend()
    overridden = type(backend).recomputes_in_fusion is not Backend.recomputes_in_fusion
    return backend.recomputes_in_fusion if overridden else None


def fuse_elementwise(graph: Graph, ctx: PassContext) -> Graph:
    """``graph`` with elementwise chains fused (inside sub-graphs too)."""
    groups, dropped = _groups(graph, _recompute_rule(ctx))
    equations: list[Equation] = []
    changed = bool(groups or dropped)
    for i, eq in enumerate(graph.equations):
        if i in dropped:
            continue
        if i in groups:
            eq = fused_equation([graph.equations[j] for j in groups[i]])
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
