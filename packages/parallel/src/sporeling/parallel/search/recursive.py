"""``recursive_programming``: halve the devices again and again, one cut per op per level.

MindSpore's fast search for big clusters. The ``2**k`` devices are split in two ``k``
times; at each level every equation (in graph order, then once more in reverse so later
choices inform earlier ones) either cuts one of its splittable labels in two along the new
device axis or replicates over it, choosing what costs least given its neighbours' current
choices. Each level costs a few evaluations per equation, so 1024 devices take as long as
ten small searches -- at the price of optimality (``dynamic_programming`` is exact).
"""
from __future__ import annotations

from ..operator.layout import Layout
from ..operator.opsharding import OpSharding, validate
from ..operator.errors import ShardingError
from .problem import Problem

__all__ = ["solve_recursive"]


def _extend(sh: OpSharding, label: str | None, n_axes: int) -> OpSharding:
    axes = dict(sh.axes)
    if label is not None:
        axes[label] = axes.get(label, ()) + (n_axes - 1,)
    return OpSharding(n_axes, tuple(axes.items()))


def solve_recursive(p: Problem) -> list:
    eqs = p.graph.equations
    n = len(eqs)
    current = [OpSharding(0, ()) for _ in range(n)]
    touching: list[list] = [[] for _ in range(n)]
    for link in p.links:
        touching[link.src].append(link)
        touching[link.dst].append(link)
    memo: dict = {}  # the layers of a stack ask the same questions: answer each once

    def unary(sub, level, i, sh):
        key = (level, p.signature(i), sh)
        hit = memo.get(key)
        if hit is None:
            hit = memo[key] = sub.unary(i, sh)
        return hit

    def link_cost(sub, level, link, a, b):
        key = (level, p.signature(link.src), p.signature(link.dst), link.out, link.operand,
               a, b)
        hit = memo.get(key)
        if hit is None:
            hit = memo[key] = sub.link_cost(link, a, b)
        return hit

    for level in range(1, p.n_axes + 1):
        sub = Problem(p.graph, level, p.cost, p.dims, p.links,
                      {v: Layout.replicated(level, len(v.aval.shape)) for v in p.outputs})
        nxt = [_extend(sh, None, level) for sh in current]
        for sweep in (range(n), range(n - 1, -1, -1)):
            for i in sweep:
                if i in p.fixed:
                    nxt[i] = _restrict(p.fixed[i], level)
                    continue
                best, best_cost = nxt[i], None
                for label in [None] + p.dims[i].splittable:
                    cand = _extend(current[i], label, level)
                    try:
                        validate(eqs[i], p.dims[i], cand)
                    except ShardingError:
                        continue
                    c = unary(sub, level, i, cand)
                    for link in touching[i]:
                        if link.src == i:
                            c += link_cost(sub, level, link, cand, nxt[link.dst])
                        else:
                            c += link_cost(sub, level, link, nxt[link.src], cand)
                    if best_cost is None or c < best_cost:
                        best, best_cost = cand, c
                nxt[i] = best
        current = nxt
    return current


def _restrict(sh: OpSharding, level: int) -> OpSharding:
    """A fixed strategy seen on the first ``level`` device axes (its deeper axes dropped)."""
    axes = []
    for label, ax in sh.axes:
        kept = tuple(a for a in ax if a < level)
        if kept:
            axes.append((label, kept))
    return OpSharding(level, tuple(axes))
