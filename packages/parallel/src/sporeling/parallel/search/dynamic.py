"""``dynamic_programming``: exact minimum-cost strategies by eliminating equations.

The graph is a pairwise cost problem: a unary cost per strategy of each equation and a cost
matrix per pair of connected equations. An equation with one neighbour is folded into that
neighbour's unary costs; one with two becomes an edge between them (the best of its own
strategies for each pair of theirs); parallel edges add up. Chains, residual branches and
attention's three projections reduce this way to nothing, and the choices are read back in
reverse -- the optimum of the cost model (MindSpore's elimination-based DP). When every
remaining equation has three or more neighbours, the one with the most is fixed to its best
strategy given the others' best, and elimination goes on.
"""
from __future__ import annotations

import numpy as np

from .problem import Problem

__all__ = ["solve_dynamic"]


def solve_dynamic(p: Problem) -> list:
    n = len(p.graph.equations)
    opts = [p.options_of(i) for i in range(n)]
    unary = [p.unary_vector(i) for i in range(n)]
    edges: dict[tuple[int, int], np.ndarray] = {}
    adj: list[set] = [set() for _ in range(n)]

    def add_edge(a, b, m):
        if a > b:
            a, b, m = b, a, m.T
        if (a, b) in edges:
            edges[(a, b)] = edges[(a, b)] + m
        else:
            edges[(a, b)] = m
            adj[a].add(b)
            adj[b].add(a)

    def edge(a, b):  # oriented [strategies of a, strategies of b]
        return edges[(a, b)] if a < b else edges[(b, a)].T

    for link in p.links:
        if link.src != link.dst:
            add_edge(link.src, link.dst, p.link_matrix_of(link))

    def remove(i):
        for j in adj[i]:
            adj[j].discard(i)
            edges.pop((min(i, j), max(i, j)), None)
        adj[i] = set()

    alive = set(range(n))
    order = []  # (kind, node, neighbours, table)
    while alive:
        i = min(alive, key=lambda k: (len(adj[k]) if len(adj[k]) <= 2 else 3, k))
        nbrs = sorted(adj[i])
        if len(nbrs) == 0:
            order.append(("free", i, (), int(np.argmin(unary[i]))))
        elif len(nbrs) == 1:
            (j,) = nbrs
            tot = unary[i][:, None] + edge(i, j)
            unary[j] = unary[j] + tot.min(axis=0)
            order.append(("one", i, (j,), tot.argmin(axis=0)))
        elif len(nbrs) == 2:
            j, k = nbrs
            eij, eik = edge(i, j), edge(i, k)
            if unary[i].size * eij.shape[1] * eik.shape[1] <= 4_000_000:
                tot = unary[i][:, None, None] + eij[:, :, None] + eik[:, None, :]
                best, arg = tot.min(axis=0), tot.argmin(axis=0)
            else:  # big tables: one strategy of i at a time
                best = np.full((eij.shape[1], eik.shape[1]), np.inf)
                arg = np.zeros(best.shape, dtype=np.int64)
                for s in range(unary[i].size):
                    cand = unary[i][s] + eij[s][:, None] + eik[s][None, :]
                    better = cand < best
                    best[better], arg[better] = cand[better], s
            remove(i)
            alive.discard(i)
            add_edge(j, k, best)
            order.append(("two", i, (j, k), arg))
            continue
        else:  # no elimination left: fix the busiest node at its best guess
            i = max(alive, key=lambda k: (len(adj[k]), -k))
            nbrs = sorted(adj[i])
            guess = unary[i] + sum(edge(i, j).min(axis=1) for j in nbrs)
            s = int(np.argmin(guess))
            for j in nbrs:
                unary[j] = unary[j] + edge(i, j)[s]
            order.append(("free", i, (), s))
        remove(i)
        alive.discard(i)
    choice = [0] * n
    for kind, i, nbrs, table in reversed(order):
        if kind == "free":
            choice[i] = table
        elif kind == "one":
            choice[i] = int(table[choice[nbrs[0]]])
        else:
            choice[i] = int(table[choice[nbrs[0]], choice[nbrs[1]]])
    return [opts[i][choice[i]] for i in range(n)]
