"""A network (or a function of Tensors) traced in inference mode into a Sporeling graph
with its weights as constants: what export lowers to MindIR, and what a loaded MindIR
graph becomes to run in a GraphCell."""
from __future__ import annotations

from sporeling.compiler.export import bind_constants, prepare_for_export
from sporeling.expression import Tensor
from sporeling.expression.export.api import _check_inputs, _inference
from sporeling.expression.graph.tracing import ARRAY_LEAF, trace
from sporeling.expression.nn import Cell

from .errors import MindIRError

__all__ = ["inference_graph"]


def inference_graph(net, inputs: tuple, level: str = "O0", name: str | None = None):
    """``(graph, out_tree, {id(weight array): parameter name})`` of ``net(*inputs)``.

    At ``level="O0"`` every weight stays the array its Parameter holds, so the mapping
    names them (MindIR keeps weights as named parameters)."""
    _check_inputs(inputs)
    if name is None:
        name = type(net).__name__ if isinstance(net, Cell) else getattr(net, "__name__",
                                                                         "graph")
    with _inference(net):
        traced, _ = trace(net, tuple(inputs), {}, name)
    if any(s is not ARRAY_LEAF for s in traced.out_static):
        raise MindIRError("the network returns values that are not tensors", op="export",
                          expected="Tensors (in tuples or lists)",
                          got=[type(s).__name__ for s in traced.out_static
                               if s is not ARRAY_LEAF])
    graph = traced.graph
    graph.outputs = graph.outputs[:len(graph.outputs) - len(traced.effect_params)]
    values = [p._data for p in traced.params] + [
        c._data if isinstance(c, Tensor) else c for c in traced.captured]
    graph = prepare_for_export(bind_constants(graph, values, keep=traced.n_args), level)
    return graph, traced.out_tree, {id(p._data): p.name for p in traced.params}
