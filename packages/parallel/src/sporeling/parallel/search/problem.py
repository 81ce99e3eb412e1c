"""A graph as a search problem: candidate strategies per equation, the cost of each on its
own (unary) and the cost of every pair of strategies on connected equations (edges)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sporeling.compiler.ir import Graph, Var

from ..operator.annotate import annotation
from ..operator.layout import Layout
from ..operator.opsharding import OpSharding, candidates, from_strategy
from ..operator.propagate import graph_links
from ..operator.rules import OpDims, sharding_rule
from .cost import CostModel

__all__ = ["Problem", "Link"]


@dataclass(frozen=True)
class Link:
    """Result ``out`` of equation ``src`` is operand ``operand`` of equation ``dst``."""
    src: int
    out: int
    dst: int
    operand: int
    var: Var


@dataclass
class Problem:
    graph: Graph
    n_axes: int
    cost: CostModel
    dims: list[OpDims] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    outputs: dict = field(default_factory=dict)
    fixed: dict = field(default_factory=dict)
    input_layouts: dict = field(default_factory=dict)
    _memo: dict = field(default_factory=dict)

    @classmethod
    def build(cls, graph: Graph, n_axes: int, cost: CostModel, *, fixed=None,
              input_layouts=None) -> "Problem":
        p = cls(graph, n_axes, cost)
        p.dims = [sharding_rule(eq) for eq in graph.equations]
        producer, consumers = graph_links(graph)
        for v, (i, k) in producer.items():
            for j, kk in consumers.get(v, []):
                p.links.append(Link(i, k, j, kk, v))
        p.outputs = {v: Layout.replicated(n_axes, len(v.aval.shape)) for v in graph.outputs
                     if isinstance(v, Var)}
        p.fixed = dict(fixed or {})
        for i, eq in enumerate(graph.equations):
            st = annotation(eq)
            if st is not None and i not in p.fixed:
                p.fixed[i] = from_strategy(eq, p.dims[i], st, n_axes)
        p.input_layouts = dict(input_layouts or {})
        return p

    # -- equal equations (the layers of a stack) share their candidates and costs ---------
    def signature(self, i: int):
        """What an equation's candidates and costs depend on: its primitive, parameters,
        operand and result shapes, which operands are parameters or fixed-layout inputs,
        which results are graph outputs, and its fixed strategy if any."""
        key = ("sig", i)
        hit = self._memo.get(key)
        if hit is None:
            eq = self.graph.equations[i]
            index = {v: k for k, v in enumerate(self.graph.inputs)}
            ins = tuple((tuple(v.aval.shape), str(v.aval.dtype), v in self.cost.params,
                         self.input_layouts.get(index.get(v)) if isinstance(v, Var) else None)
                        for v in eq.inputs)
            outs = tuple((tuple(v.aval.shape), str(v.aval.dtype), v in self.outputs)
                         for v in eq.outputs)
            hit = self._memo[key] = (eq.prim.name, repr(sorted(eq.params.items())), ins, outs,
                                     self.fixed.get(i))
        return hit

    def options_of(self, i: int) -> list[OpSharding]:
        key = ("opts", self.signature(i))
        hit = self._memo.get(key)
        if hit is None:
            hit = self._memo[key] = self.options(i)
        return hit

    def unary_vector(self, i: int) -> np.ndarray:
        key = ("unary", self.signature(i))
        hit = self._memo.get(key)
        if hit is None:
            hit = self._memo[key] = np.array([self.unary(i, s) for s in self.options_of(i)])
        return hit.copy()

    def link_matrix_of(self, link: Link) -> np.ndarray:
        key = ("link", self.signature(link.src), self.signature(link.dst), link.out,
               link.operand)
        hit = self._memo.get(key)
        if hit is None:
            hit = self._memo[key] = self.link_matrix(link, self.options_of(link.src),
                                                     self.options_of(link.dst))
        return hit

    # -- strategies and their costs -------------------------------------------------------
    def options(self, i: int) -> list[OpSharding]:
        if i in self.fixed:
            return [self.fixed[i]]
        from sporeling.core import get_context
        return candidates(self.graph.equations[i], self.dims[i], self.n_axes,
                          full=get_context("fully_use_devices"))

    def unary(self, i: int, sh: OpSharding) -> float:
        eq = self.graph.equations[i]
        t = self.cost.unary(eq, sh, self.dims[i], self.outputs)
        if self.input_layouts:  # operands the caller gives in a fixed layout
            index = {v: k for k, v in enumerate(self.graph.inputs)}
            for v, lay in zip(eq.inputs, sh.in_layouts(self.dims[i])):
                k = index.get(v)
                if k is not None and k in self.input_layouts:
                    t += self.cost.edge(self.input_layouts[k], lay, v)[0]
        return t

    def link_cost(self, link: Link, a: OpSharding, b: OpSharding) -> float:
        src = a.out_layouts(self.dims[link.src])[link.out]
        dst = b.in_layouts(self.dims[link.dst])[link.operand]
        return self.cost.edge(src, dst, link.var)[0]

    def link_matrix(self, link: Link, sa: list, sb: list) -> np.ndarray:
        """Costs of every strategy pair on a link, computed once per distinct layout pair."""
        outs, ins = {}, {}
        ia = [outs.setdefault(s.out_layouts(self.dims[link.src])[link.out], len(outs))
              for s in sa]
        ib = [ins.setdefault(s.in_layouts(self.dims[link.dst])[link.operand], len(ins))
              for s in sb]
        small = np.empty((len(outs), len(ins)))
        for src, a in outs.items():
            for dst, b in ins.items():
                small[a, b] = self.cost.edge(src, dst, link.var)[0]
        return small[np.ix_(ia, ib)]

    # -- a full assignment --------------------------------------------------------------
    def estimate(self, shardings: list[OpSharding]) -> dict:
        """Step time (s), communication bytes per device per step, memory per device."""
        eqs = self.graph.equations
        compute = comm_t = 0.0
        volume = memory = 0
        for i, (eq, sh) in enumerate(zip(eqs, shardings)):
            compute += self.cost.compute(eq, sh, self.dims[i])
            memory += self.cost.memory(eq, sh, self.dims[i])
            for v, lay in zip(eq.inputs, sh.in_layouts(self.dims[i])):
                if v in self.cost.params:
                    t, b = self.cost.grad_sync(lay, v)
                    comm_t, volume = comm_t + t, volume + b
            for v, lay in zip(eq.outputs, sh.out_layouts(self.dims[i])):
                if v in self.outputs:
                    t, b = self.cost.edge(lay, self.outputs[v], v)
                    comm_t, volume = comm_t + t, volume + b
        for link in self.links:
            a, b = shardings[link.src], shardings[link.dst]
            src = a.out_layouts(self.dims[link.src])[link.out]
            dst = b.in_layouts(self.dims[link.dst])[link.operand]
            t, nb = self.cost.edge(src, dst, link.var)
            comm_t, volume = comm_t + t, volume + nb
        return {"step_time_s": compute + comm_t, "compute_s": compute, "comm_s": comm_t,
                "comm_bytes_per_step": volume, "memory_per_device_bytes": memory}
