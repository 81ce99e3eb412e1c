"""The sharding-propagation pass: a strategy for every equation from the annotated ones.

Annotated equations (and graph inputs given a layout) keep what the user chose. From them
the pass places one equation at a time -- the one whose placed neighbours exchange the most
bytes with it -- giving it the strategy that receives and hands on their tensors with the
fewest redistribution bytes (first the strategies that keep a neighbour's layout as it is,
then every candidate). An
equation reached from nothing runs replicated. The result, :class:`ShardedGraph`, holds
each equation's strategy and the layout every graph input is stored in.
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass, field

from sporeling.compiler.ir import Graph, Var

from .annotate import annotation
from .layout import Layout
from .redistribution import plan_shape
from .rules import OpDims, sharding_rule
from .opsharding import (OpSharding, candidates, from_input_layout, from_output_layout,
                       from_strategy)

__all__ = ["ShardedGraph", "propagate", "graph_links"]


@dataclass
class ShardedGraph:
    graph: Graph
    n_axes: int
    dims: list[OpDims]
    shardings: list[OpSharding]
    input_layouts: list[Layout]
    output_layouts: list[Layout]
    meta: dict = field(default_factory=dict)

    def table(self) -> list[dict]:
        """One row per equation: op, user line, shapes, strategy, output layouts."""
        rows = []
        for eq, dims, sh in zip(self.graph.equations, self.dims, self.shardings):
            rows.append({"op": eq.prim.name, "source": eq.source,
                         "shapes": [tuple(v.aval.shape) for v in eq.inputs],
                         "strategy": sh.strategy(dims),
                         "outputs": [str(lay) for lay in sh.out_layouts(dims)]})
        return rows


def graph_links(graph: Graph):
    """``producer[var] = (eq index, output index)`` and ``consumers[var] = [(eq, operand)]``."""
    producer, consumers = {}, {}
    for i, eq in enumerate(graph.equations):
        for k, v in enumerate(eq.outputs):
            producer[v] = (i, k)
        for k, v in enumerate(eq.inputs):
            if isinstance(v, Var):
                consumers.setdefault(v, []).append((i, k))
    return producer, consumers


def _size(v) -> int:
    n = v.aval.dtype.itemsize
    for d in v.aval.shape:
        n *= int(d)
    return n


def _moved_bytes(src: Layout, dst: Layout, v) -> float:
    if src == dst:
        return 0.0
    return plan_shape(src, dst)[1] * src.local_size(v.aval.shape) * v.aval.dtype.itemsize


def propagate(graph: Graph, n_axes: int, *, input_layouts: dict | None = None,
              fixed: dict | None = None, transfer=None, op_cost=None,
              choices=None) -> ShardedGraph:
    """Strategies for every equation of ``graph`` on ``2**n_axes`` devices.

    ``fixed``: equation index -> OpSharding chosen already; equations annotated while
    tracing (:func:`~.annotate.strategy`) are checked and fixed too. ``input_layouts``:
    graph input index -> Layout the caller gives that input in. The search passes its cost
    model: ``transfer(src, dst, var)`` prices a redistribution (default: bytes moved),
    ``op_cost(i, sharding)`` a strategy on its own (default: 0), ``choices(i)`` the
    candidates (default: every split that fits).
    """
    transfer = transfer or _moved_bytes
    eqs = graph.equations
    dims = [sharding_rule(eq) for eq in eqs]
    chosen: dict[int, OpSharding] = dict(fixed or {})
    for i, eq in enumerate(eqs):
        st = annotation(eq)
        if st is not None and i not in chosen:
            chosen[i] = from_strategy(eq, dims[i], st, n_axes)
    in_lay = dict(input_layouts or {})
    producer, consumers = graph_links(graph)
    input_index = {v: k for k, v in enumerate(graph.inputs)}
    outputs = {v: Layout.replicated(n_axes, len(v.aval.shape)) for v in graph.outputs
               if isinstance(v, Var)}

    def layout_of_operand(i, k):
        """What operand k of equation i arrives in, if its source is placed (else None)."""
        v = eqs[i].inputs[k]
        if v in producer:
            j, out = producer[v]
            return chosen[j].out_layouts(dims[j])[out] if j in chosen else None
        if v in input_index and input_index[v] in in_lay:
            return in_lay[input_index[v]]
        return None

    def cost(i, sh):
        total = op_cost(i, sh) if op_cost is not None else 0
        req = sh.in_layouts(dims[i])
        for k, v in enumerate(eqs[i].inputs):
            if isinstance(v, Var):
                src = layout_of_operand(i, k)
                if src is not None:
                    total += transfer(src, req[k], v)
        outs = sh.out_layouts(dims[i])
        for k, v in enumerate(eqs[i].outputs):
            if v in outputs:  # a result is handed back whole
                total += transfer(outs[k], outputs[v], v)
            for j, kk in consumers.get(v, []):
                if j in chosen:
                    need = chosen[j].in_layouts(dims[j])[kk]
                    total += transfer(outs[k], need, v)
        return total

    def options(i):
        found = []
        for k, v in enumerate(eqs[i].inputs):
            src = layout_of_operand(i, k) if isinstance(v, Var) else None
            if src is not None:
                found.append(from_input_layout(eqs[i], dims[i], k, src.without_partial()))
        for k, v in enumerate(eqs[i].outputs):
            for j, kk in consumers.get(v, []):
                if j in chosen:
                    need = chosen[j].in_layouts(dims[j])[kk]
                    found.append(from_output_layout(eqs[i], dims[i], k, need))
        found = [sh for sh in found if sh is not None]
        more = choices(i) if choices is not None else candidates(eqs[i], dims[i], n_axes,
                                                                 full=False)
        return found + list(more)

    # the next equation placed is the one whose placed neighbours bring the most bytes
    # (ties: the earliest), so strategies spread along the data, not along weights
    informed = [0] * len(eqs)
    heap: list = []

    def tell(i, nbytes):
        if i not in chosen:
            informed[i] += nbytes
            heapq.heappush(heap, (-informed[i], i))

    def placed(i):
        eq = eqs[i]
        for v in eq.inputs:
            if v in producer:
                tell(producer[v][0], _size(v))
        for v in eq.outputs:
            for j, _ in consumers.get(v, []):
                tell(j, _size(v))

    for k, v in enumerate(graph.inputs):  # inputs given a layout inform their consumers
        if k in in_lay:
            for j, _ in consumers.get(v, []):
                tell(j, _size(v))
    for i in sorted(chosen):
        placed(i)
    while heap:
        _, i = heapq.heappop(heap)
        if i in chosen:
            continue
        chosen[i] = min(options(i), key=lambda sh: cost(i, sh))  # first of equals wins
        placed(i)
    shardings = [chosen.get(i, OpSharding(n_axes, ())) for i in range(len(eqs))]
    return finish(graph, n_axes, dims, shardings, in_lay)


def finish(graph, n_axes, dims, shardings, in_lay=None, out_layouts=None) -> ShardedGraph:
    """A ShardedGraph: each unplaced input stored as its first consumer wants it."""
    in_lay = dict(in_lay or {})
    _, consumers = graph_links(graph)
    layouts = []
    for k, v in enumerate(graph.inputs):
        if k in in_lay:
            layouts.append(in_lay[k])
            continue
        users = consumers.get(v, [])
        if users:
            i, kk = users[0]
            layouts.append(shardings[i].in_layouts(dims[i])[kk])
        else:
            layouts.append(Layout.replicated(n_axes, len(v.aval.shape)))
    outs = list(out_layouts or [Layout.replicated(n_axes, len(v.aval.shape))
                                for v in graph.outputs])
    return ShardedGraph(graph, n_axes, dims, shardings, layouts, outs)
