"""Graphs to learn on, built with networkx (``pip install sporeling-gnn[datasets]``):
Zachary's karate club and stochastic block models."""
from __future__ import annotations

import numpy as np

from sporeling.core import SporelingError

from .batch import Graph

__all__ = ["karate_club", "stochastic_block_model", "from_networkx"]


def _networkx():
    try:
        import networkx
    except ImportError as e:  # an optional dependency
        raise SporelingError("the graph datasets need networkx", op="sporeling.gnn.datasets",
                             expected="networkx installed",
                             got="no module named networkx",
                             hint="pip install sporeling-gnn[datasets]") from e
    return networkx


def from_networkx(g, x=None, y=None) -> Graph:
    """An undirected networkx graph as a :class:`Graph` with both directions of every edge;
    nodes numbered in ``g``'s order; ``x`` defaults to one-hot node ids."""
    nodes = list(g.nodes)
    pos = {n: i for i, n in enumerate(nodes)}
    pairs = np.array([(pos[a], pos[b]) for a, b in g.edges if a != b], np.int64).reshape(-1, 2)
    edge_index = np.concatenate([pairs.T, pairs.T[::-1]], axis=1)
    if x is None:
        x = np.eye(len(nodes), dtype=np.float32)
    return Graph(x, edge_index, y)


def karate_club() -> Graph:
    """Zachary's karate club (34 members, 78 friendships): ``y`` is the club each member
    joined after the split (0: Mr. Hi, 1: Officer), ``x`` one-hot ids."""
    g = _networkx().karate_club_graph()
    y = np.array([0 if g.nodes[n]["club"] == "Mr. Hi" else 1 for n in g.nodes], np.int64)
    return from_networkx(g, y=y)


def stochastic_block_model(sizes, p_in: float, p_out: float, features: int = 16,
                           seed: int = 0) -> Graph:
    """A stochastic block model (``networkx.stochastic_block_model``): blocks of ``sizes``
    nodes, an edge within a block with probability ``p_in``, across with ``p_out``; ``y`` is
    the block, ``x`` Gaussian features whose mean depends on the block (a learnable but
    noisy signal)."""
    nx = _networkx()
    k = len(sizes)
    probs = np.full((k, k), p_out)
    np.fill_diagonal(probs, p_in)
    g = nx.stochastic_block_model(list(sizes), probs.tolist(), seed=seed)
    y = np.repeat(np.arange(k), sizes)
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((k, features))
    x = (0.5 * centres[y] + rng.standard_normal((len(y), features))).astype(np.float32)
    return from_networkx(g, x=x, y=y)
