"""Edge preprocessing for graph layers: self loops and GCN's symmetric normalisation.

Both are written with ops, so they work on NumPy edge indices (computed once, eagerly) and
on traced ones (inside a compiled graph) alike.
"""
from __future__ import annotations

import numpy as np

from sporeling.compiler.ops import (concat, gather, greater, mul, rsqrt, stack, where)
from sporeling.compiler.ops._util import as_operand

from .primitives import segment_sum

__all__ = ["add_self_loops", "gcn_norm", "degree"]


def add_self_loops(edge_index, num_nodes: int):
    """``edge_index`` with the edges ``i -> i`` for every node appended."""
    edge_index = as_operand(edge_index)
    loops = np.arange(num_nodes, dtype=np.dtype(edge_index.dtype))
    if isinstance(edge_index, np.ndarray):
        return np.concatenate([edge_index, np.stack([loops, loops])], axis=1)
    return concat([edge_index, stack([loops, loops])], axis=1)


def degree(index, num_nodes: int, weight=None, dtype=np.float32):
    """How many edges (or how much ``weight``) enter each node (``index``: the targets)."""
    if weight is None:
        weight = np.ones(tuple(index.shape), dtype)
    return segment_sum(weight, index, num_nodes)


def gcn_norm(edge_index, num_nodes: int, edge_weight=None, self_loops: bool = True,
             dtype=np.float32):
    """``(edge_index, norm)`` of GCN (Kipf & Welling): self loops added (weight 1), and each
    edge ``j -> i`` weighted ``w_ji / sqrt(deg(i) deg(j))``, degrees counted at the targets
    (with the loops), so that propagating with these weights computes
    ``D^-1/2 (A + I) D^-1/2 X``. A node without edges gets weight 0, not a division by 0."""
    edge_index = as_operand(edge_index)
    if self_loops:
        edge_index = add_self_loops(edge_index, num_nodes)
        if edge_weight is not None:
            edge_weight = concat([as_operand(edge_weight), np.ones(num_nodes, dtype)])
    src, dst = edge_index[0], edge_index[1]
    if edge_weight is None:
        edge_weight = np.ones(tuple(src.shape), dtype)
    deg = degree(dst, num_nodes, edge_weight)
    positive = greater(deg, 0.0)
    inv_sqrt = where(positive, rsqrt(where(positive, deg, 1.0)), 0.0)
    norm = mul(mul(gather(inv_sqrt, src, axis=0), edge_weight), gather(inv_sqrt, dst, axis=0))
    return edge_index, norm
