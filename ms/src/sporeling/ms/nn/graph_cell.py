"""MindSpore's ``nn.GraphCell``: runs a graph loaded by ``ms.load`` (a MindIR)."""
from __future__ import annotations

import numpy as np

from sporeling.core import ArgumentError
from sporeling.expression import Tensor
from sporeling.expression.export import GraphCell as _SxGraphCell

from ..mindir.errors import MindIRError
from ..mindir.reader import MindIRGraph
from ..mindir.tracing import inference_graph

__all__ = ["GraphCell"]


class GraphCell(_SxGraphCell):
    """``GraphCell(graph, params_init=None, obf_random_seed=None)``: ``graph`` from
    ``ms.load`` runs on inputs of the shapes and dtypes it was exported with (as in
    MindSpore). ``params_init`` (``{name: Tensor}``, names such as ``"fc1.weight"``)
    replaces the values of the graph's parameters of those names; other names are ignored.

    The graph is compiled once, weights as constants; it runs in PyNative and Graph mode
    and is differentiable with respect to its inputs (see ``sporeling.expression``'s
    GraphCell). A ``sporeling.compiler`` Graph is accepted too.
    """

    def __init__(self, graph, params_init=None, obf_random_seed=None):
        if obf_random_seed is not None:
            raise NotImplementedError("Dynamic structure obfuscation is not supported now.")
        if isinstance(graph, MindIRGraph):
            compiled, structure, names = _compile(graph, _params(graph, params_init))
            super().__init__(compiled, out_structure=structure, input_names=names,
                             meta={"model": graph.name, "source": graph.where})
            self.mindir = graph
        elif hasattr(graph, "equations") and hasattr(graph, "inputs"):
            super().__init__(graph)
        else:
            raise TypeError(f"For 'GraphCell', the argument 'graph' must be a FuncGraph "
                            f"loaded from MindIR (ms.load), but got {type(graph).__name__}.")


def _params(graph: MindIRGraph, params_init) -> dict:
    """The graph's weights with ``params_init``'s values in place of those it names."""
    params = dict(graph.parameters)
    if params_init is None:
        return params
    if not isinstance(params_init, dict):
        raise TypeError(f"For 'GraphCell', the argument 'params_init' must be a dict, but "
                        f"got {type(params_init).__name__}.")
    for name, value in params_init.items():
        if not isinstance(name, str):
            raise TypeError(f"For 'GraphCell', the key of the 'params_init' must be str, "
                            f"but got {type(name).__name__}.")
        if not isinstance(value, Tensor):
            raise TypeError(f"For 'GraphCell', the value of the 'params_init' must be a "
                            f"Tensor or Parameter, but got {type(value).__name__}.")
        if name not in params:
            continue
        array = np.asarray(value.asnumpy())
        old = params[name]
        if array.shape != old.shape or array.dtype != old.dtype:
            raise ArgumentError(f"params_init[{name!r}] does not fit the graph's parameter",
                                op="GraphCell", expected=f"{old.dtype}{list(old.shape)}",
                                got=f"{array.dtype}{list(array.shape)}")
        params[name] = array
    return params


def _compile(graph: MindIRGraph, params: dict):
    """The MindIR graph traced into a Sporeling graph at its input shapes."""
    examples = []
    for name, shape, dtype in graph.inputs:
        if any(d < 0 for d in shape):
            raise MindIRError(f"input {name!r} has a dynamic shape", op="GraphCell",
                              where=graph.where, got=list(shape),
                              hint="export the model with static input shapes")
        examples.append(Tensor(np.zeros(shape, dtype)))
    weights = {k: Tensor(v) for k, v in params.items()}

    def run(*xs):
        return graph.run(xs, weights)

    compiled, tree, _ = inference_graph(run, tuple(examples), "O1",
                                        name=graph.name.rsplit("_", 1)[0] or "graph")
    names = [name.rsplit(":", 1)[-1] for name, _, _ in graph.inputs]
    return compiled, (None if len(compiled.outputs) == 1 and len(graph.outputs) == 1
                      else tree), names
