"""``search(graph, device_num)``: the automatic strategy search of ``auto_parallel``.

Three modes (``search_mode`` of the parallel context, or the ``mode`` argument):

* ``dynamic_programming`` -- the exact optimum of the cost model (:mod:`.dynamic`);
* ``recursive_programming`` -- device halving, fast on 1024 devices (:mod:`.recursive`);
* ``sharding_propagation`` -- the annotated ops' strategies spread to the rest
  (:func:`~sporeling.parallel.operator.propagate`); with no annotation, the costliest op
  (most FLOPs) is seeded with each of its few cheapest strategies in turn and the best
  resulting plan is kept.

The device count may exceed the ranks at hand (64, 1024): nothing runs, the cost model
estimates step time, communication per step and memory per device, so a cluster run can be
planned on a laptop. :class:`SearchResult` holds the :class:`ShardedGraph` (runnable when
the device count is the world size), the per-op table and those estimates.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from sporeling.compiler.ir import Graph

from ..operator.layout import axes_for
from ..operator.propagate import ShardedGraph, finish, propagate
from .cost import CostModel, Machine, measure, op_flops
from .dynamic import solve_dynamic
from .problem import Problem
from .recursive import solve_recursive

__all__ = ["search", "SearchResult", "strategy_table", "format_table", "MODES"]

MODES = ("sharding_propagation", "dynamic_programming", "recursive_programming")


@dataclass
class SearchResult:
    sharded: ShardedGraph
    mode: str
    device_num: int
    estimate: dict
    search_time_s: float

    def table(self) -> list[dict]:
        return self.sharded.table()


def search(graph: Graph, device_num: int, *, mode: str | None = None,
           machine: Machine | None = None, params=(), input_layouts=None,
           fixed=None) -> SearchResult:
    """Choose a strategy for every equation of ``graph`` on ``device_num`` devices.

    ``params``: indices of the graph inputs that are trained parameters (their gradients
    are all-reduced over the devices replicating them); ``machine``: the rates to assume
    (default: measured here, :func:`~.cost.measure`).
    """
    if mode is None:
        from sporeling.core import get_context
        mode = get_context("search_mode")
    if mode not in MODES:
        from ..operator.errors import ShardingError
        raise ShardingError("unknown search mode", op="search", expected=", ".join(MODES),
                            got=repr(mode))
    n_axes = axes_for(device_num, op="search")
    machine = machine or measure()
    cost = CostModel(machine, {graph.inputs[k] for k in params})
    start = time.perf_counter()
    problem = Problem.build(graph, n_axes, cost, fixed=fixed, input_layouts=input_layouts)
    if mode == "dynamic_programming":
        shardings = solve_dynamic(problem)
    elif mode == "recursive_programming":
        shardings = solve_recursive(problem)
    else:
        shardings = _propagation(problem, graph, n_axes, input_layouts)
    elapsed = time.perf_counter() - start
    sharded = finish(graph, n_axes, problem.dims, shardings, input_layouts)
    return SearchResult(sharded, mode, device_num, problem.estimate(shardings), elapsed)


def _propagation(problem, graph, n_axes, input_layouts, tries: int = 6) -> list:
    """Propagate from the annotated ops; with none, from the costliest op, trying its
    ``tries`` cheapest strategies as the seed and keeping the best whole plan."""
    hooks = dict(transfer=lambda src, dst, v: problem.cost.edge(src, dst, v)[0],
                 op_cost=problem.unary, choices=problem.options_of)
    if problem.fixed or not graph.equations:
        return propagate(graph, n_axes, input_layouts=input_layouts, fixed=problem.fixed,
                         **hooks).shardings
    i = max(range(len(graph.equations)), key=lambda k: op_flops(graph.equations[k]))
    seeds = sorted(problem.options(i), key=lambda s: problem.unary(i, s))[:tries]
    plans = [propagate(graph, n_axes, input_layouts=input_layouts, fixed={i: s},
                       **hooks).shardings for s in seeds]
    return min(plans, key=lambda sh: problem.estimate(sh)["step_time_s"])


def strategy_table(fn, *args, device_num: int, mode: str | None = None,
                   machine: Machine | None = None, params=None) -> SearchResult:
    """Search strategies for ``fn`` (a function of arrays or a Cell) on ``args``.

    For a Cell (or a function reading Parameters) the Parameters it reads are the trained
    parameters; for a plain function ``params`` lists the indices of the arguments that are.
    """
    from sporeling.expression.graph.tracing import trace
    traced, _ = trace(fn, tuple(args), {}, getattr(fn, "__name__", type(fn).__name__))
    if params is None:
        params = range(traced.n_args, traced.n_args + len(traced.params))
    return search(traced.graph, device_num, mode=mode, machine=machine, params=tuple(params))


def _si(n: float, unit: str) -> str:
    for scale, prefix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(n) >= scale:
            return f"{n / scale:.3g} {prefix}{unit}"
    return f"{n:.3g} {unit}"


def format_table(result: SearchResult) -> str:
    """The chosen strategy per op and the estimates, as text."""
    rows = [("op", "strategy", "result layout", "line")]
    for r in result.table():
        rows.append((r["op"], str(r["strategy"]).replace(" ", ""), "; ".join(r["outputs"]),
                     r["source"] or ""))
    widths = [max(len(row[c]) for row in rows) for c in range(3)]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row[:3], widths)) + "  " + row[3]
             for row in rows]
    e = result.estimate
    lines += ["", f"devices {result.device_num}, search {result.mode} in "
                  f"{result.search_time_s:.3f} s",
              f"estimated step time {e['step_time_s'] * 1e3:.4g} ms (compute "
              f"{e['compute_s'] * 1e3:.4g} ms, communication {e['comm_s'] * 1e3:.4g} ms)",
              f"communication per step per device {_si(e['comm_bytes_per_step'], 'B')}",
              f"memory per device {_si(e['memory_per_device_bytes'], 'B')}"]
    return "\n".join(lines)
