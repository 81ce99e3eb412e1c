"""Mini-batching of graphs and global pooling.

Graphs in one batch form one big graph with no edges between them: node features are
concatenated, each graph's edge indices are offset by the number of nodes before it, and
``batch[n]`` says which graph node ``n`` came from. Pooling reduces nodes per graph with a
segment reduction over ``batch``.

    >>> g = Graph(np.ones((2, 3)), np.array([[0], [1]]))
    >>> b = Batch.from_graphs([g, g])
    >>> b.edge_index.tolist(), b.batch.tolist()
    ([[0, 2], [1, 3]], [0, 0, 1, 1])
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sporeling.core import ShapeError

from .primitives import segment_max, segment_mean, segment_sum

__all__ = ["Graph", "Batch", "global_add_pool", "global_mean_pool", "global_max_pool"]


@dataclass
class Graph:
    """One graph: node features ``x`` ``(N, F)``, ``edge_index`` ``(2, E)`` (sources, then
    targets), optionally labels ``y`` (per node or per graph) and ``edge_weight`` ``(E,)``."""
    x: np.ndarray
    edge_index: np.ndarray
    y: np.ndarray | None = None
    edge_weight: np.ndarray | None = None

    def __post_init__(self):
        self.x = np.asarray(self.x)
        self.edge_index = np.asarray(self.edge_index, np.int64).reshape(2, -1)
        if self.edge_index.size and (self.edge_index.min() < 0 or
                                     self.edge_index.max() >= self.num_nodes):
            raise ShapeError("edge_index refers to a missing node", op="Graph",
                             expected=f"node ids in [0, {self.num_nodes})",
                             got=f"ids in [{self.edge_index.min()}, {self.edge_index.max()}]")

    @property
    def num_nodes(self) -> int:
        return int(self.x.shape[0])

    @property
    def num_edges(self) -> int:
        return int(self.edge_index.shape[1])


@dataclass
class Batch(Graph):
    """Several graphs as one (see the module doc): also ``batch`` ``(N,)``, ``ptr`` (where
    each graph's nodes start, and the total) and ``num_graphs``."""
    batch: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    ptr: np.ndarray = field(default_factory=lambda: np.zeros(1, np.int64))

    @property
    def num_graphs(self) -> int:
        return int(len(self.ptr) - 1)

    @classmethod
    def from_graphs(cls, graphs) -> "Batch":
        graphs = list(graphs)
        if not graphs:
            raise ShapeError("nothing to batch", op="Batch.from_graphs",
                             expected="at least one Graph", got="an empty list")
        widths = {g.x.shape[1:] for g in graphs}
        if len(widths) > 1:
            raise ShapeError("graphs differ in node feature shape", op="Batch.from_graphs",
                             expected="one feature shape", got=sorted(map(str, widths)))
        sizes = np.array([g.num_nodes for g in graphs], np.int64)
        ptr = np.concatenate([[0], np.cumsum(sizes)])
        edges = np.concatenate([g.edge_index + off for g, off in zip(graphs, ptr)], axis=1)
        ys = [g.y for g in graphs]
        y = None if any(v is None for v in ys) else np.concatenate(
            [np.atleast_1d(v) for v in ys])
        weights = [g.edge_weight for g in graphs]
        edge_weight = None if any(w is None for w in weights) else np.concatenate(weights)
        return cls(np.concatenate([g.x for g in graphs]), edges, y, edge_weight,
                   batch=np.repeat(np.arange(len(graphs)), sizes), ptr=ptr)

    def to_graphs(self) -> list[Graph]:
        """The graphs again (labels split per node when there is one per node)."""
        out = []
        for i in range(self.num_graphs):
            lo, hi = self.ptr[i], self.ptr[i + 1]
            keep = (self.edge_index[0] >= lo) & (self.edge_index[0] < hi)
            y = None
            if self.y is not None:
                y = self.y[lo:hi] if len(self.y) == self.num_nodes else self.y[i:i + 1]
            w = None if self.edge_weight is None else self.edge_weight[keep]
            out.append(Graph(self.x[lo:hi], self.edge_index[:, keep] - lo, y, w))
        return out


def global_add_pool(x, batch, num_graphs: int | None = None):
    """Node rows summed per graph: ``(num_graphs, F)``."""
    return segment_sum(x, batch, num_graphs)


def global_mean_pool(x, batch, num_graphs: int | None = None):
    """Node rows averaged per graph."""
    return segment_mean(x, batch, num_graphs)


def global_max_pool(x, batch, num_graphs: int | None = None):
    """Node rows maximised per graph."""
    return segment_max(x, batch, num_graphs)
