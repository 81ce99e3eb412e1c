"""Running a :class:`~.propagate.ShardedGraph` on one rank.

Every rank walks the equations in order: it brings each operand into the layout the
equation's strategy asks for (the redistribution plan, computed once per layout pair), runs
the primitive on its blocks (a rule's ``local`` function where re-binding is not enough)
and keeps the results in the layouts the strategy gives them (partial ones included).
Graph inputs are cut from the full arrays every rank is given; outputs are brought to the
requested layouts (whole, by default).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sporeling.compiler import bind
from sporeling.compiler.ir import Const

from .layout import Layout
from .propagate import ShardedGraph
from .redistribution import PairGroups, apply_plan, plan

__all__ = ["run_sharded", "local_block", "RankInfo", "rank_graph"]


def local_block(full, layout: Layout, rank: int) -> np.ndarray:
    full = np.asarray(full)
    return np.ascontiguousarray(full[layout.block(rank, full.shape)]) if full.ndim else full


@dataclass
class RankInfo:
    """What a rule's ``local`` function may ask: where this rank's blocks start."""
    rank: int
    layouts: list[Layout]
    shapes: list[tuple]

    def block_start(self, operand: int, dim: int) -> int:
        return self.layouts[operand].block(self.rank, self.shapes[operand])[dim].start


class _Plans:
    def __init__(self):
        self.cache = {}

    def __call__(self, src, dst, shape, itemsize):
        key = (src, dst, tuple(shape), itemsize)
        steps = self.cache.get(key)
        if steps is None:
            steps = self.cache[key] = plan(src, dst, shape, itemsize)
        return steps


def run_sharded(sg: ShardedGraph, args, comm, *, plans: _Plans | None = None,
                inputs_are_local: bool = False, differentiable: bool = False):
    """This rank's blocks of the graph's outputs (in ``sg.output_layouts``) for the full
    input arrays ``args`` (or this rank's blocks of them with ``inputs_are_local``).

    ``differentiable``: every step is a primitive bound on the values as they come
    (collectives included), so autodiff (``vjp``) differentiates the rank's program."""
    graph, rank = sg.graph, comm.rank
    groups = PairGroups(comm, sg.n_axes)
    plans = plans or _Plans()
    env: dict = {}  # Var -> {Layout: block}

    def put(v, layout, block):
        env.setdefault(v, {})[layout] = block

    def get(v, layout: Layout):
        if isinstance(v, Const):
            return local_block(v.value, layout, rank)
        held = env[v]
        if layout in held:
            return held[layout]
        src = next(iter(held))  # the layout the value was made in
        block = apply_plan(plans(src, layout, v.aval.shape, v.aval.dtype.itemsize),
                           held[src], groups, differentiable=differentiable)
        held[layout] = block
        return block

    for v, layout, value in zip(graph.inputs, sg.input_layouts, args):
        put(v, layout, value if inputs_are_local else local_block(value, layout, rank))
    from sporeling.compiler.ir.trace import innermost_trace
    trace = innermost_trace() if differentiable else None  # set when rank_graph traces us
    for eq, dims, sh in zip(graph.equations, sg.dims, sg.shardings):
        start = len(trace.equations) if trace is not None else 0
        in_layouts = sh.in_layouts(dims)
        blocks = [get(v, lay) for v, lay in zip(eq.inputs, in_layouts)]
        out_layouts = sh.out_layouts(dims)
        if dims.local is not None:
            info = RankInfo(rank, in_layouts, [tuple(v.aval.shape) for v in eq.inputs])
            out = dims.local(eq, info, *blocks)
        else:
            params = eq.params
            if dims.local_params is not None:
                params = dims.local_params(eq, [lay.local_shape(v.aval.shape)
                                                for v, lay in zip(eq.outputs, out_layouts)])
            out = bind(eq.prim, *blocks, **params)
        outs = out if eq.prim.multiple_results else (out,)
        for v, lay, block in zip(eq.outputs, out_layouts, outs):
            put(v, lay, block)
        if trace is not None:  # the rank's equations (collectives too) keep the user's line
            for new in trace.equations[start:]:
                new.source = eq.source
    made_at = {v: eq.source for eq in graph.equations for v in eq.outputs}
    results = []
    for v, lay in zip(graph.outputs, sg.output_layouts):
        start = len(trace.equations) if trace is not None else 0
        results.append(get(v, lay) if not isinstance(v, Const) else np.asarray(v.value))
        if trace is not None:  # handing a result back: the line that computed it
            for new in trace.equations[start:]:
                new.source = made_at.get(v)
    return results


def rank_graph(sg: ShardedGraph, comm):
    """This rank's program as IR: its blocks of the inputs in, its blocks of the outputs
    out, the local ops on blocks and the redistributions as collective primitives
    (``all_gather``, ``all_to_all``, ``reduce_scatter``, ``all_reduce`` over two-rank
    groups) and ``slice`` equations -- printable, verifiable, compilable, differentiable.
    Every rank of ``comm`` calls it (the groups are created on first use)."""
    from sporeling.compiler.core import Aval
    from sporeling.compiler.ir import make_graph
    avals = [Aval(lay.local_shape(v.aval.shape), v.aval.dtype)
             for v, lay in zip(sg.graph.inputs, sg.input_layouts)]
    graph = make_graph(lambda *blocks: run_sharded(sg, list(blocks), comm,
                                                   inputs_are_local=True,
                                                   differentiable=True),
                       *avals, name=f"{sg.graph.name}@rank{comm.rank}")
    return graph
