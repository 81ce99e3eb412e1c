"""A Cell's inference graph with its weights as constants (what deployment passes rewrite)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sporeling.compiler.ir import Graph
from sporeling.compiler.passes import freeze_inputs

from ..graph.tracing import trace
from ..tensor import Tensor

__all__ = ["FrozenGraph", "frozen_graph", "as_array"]


def as_array(x) -> np.ndarray:
    return x.asnumpy() if isinstance(x, Tensor) else np.asarray(x)


@dataclass
class FrozenGraph:
    """``graph(x)`` for one input shape; ``const_names`` maps ``id`` of each weight array
    baked in to its Parameter's name; ``out_tree``/``out_static`` rebuild the outputs."""
    graph: Graph
    const_names: dict
    out_tree: object
    out_static: list


def frozen_graph(net, x: np.ndarray) -> FrozenGraph:
    """Trace ``net`` (in inference mode) on ``x`` and bake its Parameters in."""
    was_training = net.training
    net.set_train(False)
    try:
        traced, _ = trace(net, (x,), {}, type(net).__name__)
    finally:
        net.set_train(was_training)
    if traced.effect_params:  # an inference graph writes no state
        from sporeling.core import SporelingError
        raise SporelingError("the network writes Parameters in inference mode",
                             op="deploy", got=[p.name for p in traced.effect_params])
    arrays = [np.array(p.asnumpy(), copy=True) for p in traced.params]
    values = {traced.n_args + i: a for i, a in enumerate(arrays)}
    base = traced.n_args + len(arrays)
    values.update({base + i: as_array(c) for i, c in enumerate(traced.captured)})
    graph = freeze_inputs(traced.graph, values)
    return FrozenGraph(graph, {id(a): p.name for a, p in zip(arrays, traced.params)},
                       traced.out_tree, traced.out_static)
