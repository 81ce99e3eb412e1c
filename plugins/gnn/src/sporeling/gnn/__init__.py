"""sporeling.gnn: graph neural networks for Sporeling, joining only through hooks.

Segment primitives (``gnn_segment_sum/mean/max``, contributed with their kernels by the
plugin), the ``MessagePassing`` Cell, the layers ``GCNConv``, ``GATConv``, ``SAGEConv``,
``GINConv``, mini-batching of graphs (``Batch``) with global pooling, and datasets.

Names load on first use, so loading the plugin (``sporeling.gnn.plugin``) while the
compiler collects primitives imports neither ``sporeling.expression`` nor the layers."""
from __future__ import annotations

import importlib

_WHERE = {
    "primitives": ("segment_sum", "segment_mean", "segment_max", "segment_softmax", "scatter",
                   "scatter_add", "gather", "SegmentIdError"),
    "message_passing": ("MessagePassing",),
    "layers": ("GCNConv", "GATConv", "SAGEConv", "GINConv"),
    "batch": ("Graph", "Batch", "global_add_pool", "global_mean_pool", "global_max_pool"),
    "norm": ("add_self_loops", "degree", "gcn_norm"),
    "datasets": ("karate_club", "stochastic_block_model", "from_networkx"),
}
_MODULE_OF = {name: module for module, names in _WHERE.items() for name in names}
__all__ = sorted(_MODULE_OF)


def __getattr__(name: str):
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'sporeling.gnn' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
