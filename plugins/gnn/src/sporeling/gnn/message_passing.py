"""``MessagePassing``: the base Cell of graph layers (PyG's ``MessagePassing``, MindSpore
GNN's message/aggregate/update).

``propagate(edge_index, x=..., **kw)`` runs, for the edges ``j -> i`` in ``edge_index``
(``(2, E)`` integers: row 0 the sources ``j``, row 1 the targets ``i``):

1. ``message(...)``: each argument named ``<name>_j`` receives ``<name>`` gathered at the
   sources, ``<name>_i`` at the targets; other names pass through (edge weights, ...);
   ``index`` is the targets and ``num_nodes`` the node count. It returns one row per edge.
2. ``aggregate(messages, index, num_nodes)``: a segment reduction over the targets,
   ``aggr`` = ``"sum"``, ``"mean"`` or ``"max"`` (an isolated node gets 0).
3. ``update(aggregated, ...)``: what the layer does with each node's aggregate (identity by
   default; it receives the keyword arguments of ``propagate``).

Everything is made of ops, so layers run in PyNative and Graph mode and differentiate.
"""
from __future__ import annotations

import inspect

from sporeling.compiler.ops import gather
from sporeling.core import ShapeError
from sporeling.expression.nn import Cell

from .primitives import scatter

__all__ = ["MessagePassing", "split_edges"]

_AGGR = ("sum", "add", "mean", "max")


def split_edges(edge_index):
    """``(sources, targets)`` of a ``(2, E)`` edge index, with a clear error otherwise."""
    shape = tuple(getattr(edge_index, "shape", ()))
    if len(shape) != 2 or shape[0] != 2:
        raise ShapeError("edge_index must be (2, E)", op="propagate",
                         expected="an integer array of shape (2, E)", got=shape)
    return edge_index[0], edge_index[1]


class MessagePassing(Cell):
    """Subclass it: define ``message`` (and optionally ``aggregate``/``update``) and call
    ``self.propagate(edge_index, x=x)`` from ``construct``."""

    def __init__(self, aggr: str = "sum"):
        super().__init__()
        if aggr not in _AGGR:
            raise ShapeError("unknown aggregation", op=type(self).__name__,
                             expected=f"one of {', '.join(_AGGR)}", got=repr(aggr))
        self.aggr = aggr
        self._message_args = tuple(inspect.signature(self.message).parameters)

    def propagate(self, edge_index, num_nodes: int | None = None, **kwargs):
        src, dst = split_edges(edge_index)
        if num_nodes is None:
            num_nodes = _num_nodes(kwargs)
        picked = {}
        for name in self._message_args:
            base, end = name[:-2], name[-2:]
            if end in ("_j", "_i") and base in kwargs:
                picked[name] = gather(kwargs[base], src if end == "_j" else dst, axis=0)
            elif name == "index":
                picked[name] = dst
            elif name == "num_nodes":
                picked[name] = num_nodes
            elif name in kwargs:
                picked[name] = kwargs[name]
            else:
                raise ShapeError(f"message() needs {name!r}", op=type(self).__name__,
                                 expected=f"propagate(..., {name.removesuffix('_j')}=...)",
                                 got=f"keywords {sorted(kwargs)}")
        messages = self.message(**picked)
        aggregated = self.aggregate(messages, dst, num_nodes)
        return self.update(aggregated, **kwargs)

    def message(self, x_j):
        return x_j

    def aggregate(self, messages, index, num_nodes: int):
        return scatter(messages, index, num_nodes, self.aggr)

    def update(self, aggregated, **kwargs):
        return aggregated


def _num_nodes(kwargs) -> int:
    for value in (kwargs.get("x"), *kwargs.values()):
        if hasattr(value, "shape") and len(value.shape):
            return int(value.shape[0])
    raise ShapeError("cannot tell the number of nodes", op="propagate",
                     expected="num_nodes=<int> or a node feature array",
                     got=f"keywords {sorted(kwargs)}")
