"""GraphCell: a loaded graph that runs like any Cell (MindSpore's ``nn.GraphCell``)."""
from __future__ import annotations

import numpy as np

from sporeling.compiler.ir import Graph, evaluate, unflatten
from sporeling.compiler.pipeline import compile_graph
from sporeling.core import DTypeError, ShapeError

from ..autograd import is_recording
from ..graph.tracing import is_tracing
from ..nn import Cell
from ..tensor.tensor import Tensor, wrap

__all__ = ["GraphCell"]


class GraphCell(Cell):
    """Runs ``graph`` on inputs of its traced shapes and dtypes.

    Plain calls run the graph compiled once (passes and memory plan included); inside a
    Graph-mode trace (``GRAPH_MODE``, ``jit``) its equations are inlined into the caller's
    graph; while ``grad`` records they run as PyNative ops, so a loaded model is
    differentiable with respect to its inputs.
    """

    def __init__(self, graph: Graph, *, out_structure=None, input_names=None,
                 meta: dict | None = None):
        super().__init__()
        self.graph = graph
        self.out_structure = out_structure
        self.input_names = list(input_names or [f"input{i}" for i in range(len(graph.inputs))])
        self.meta = dict(meta or {})
        self._executable = None

    @property
    def executable(self):
        if self._executable is None:
            self._executable = compile_graph(self.graph)
        return self._executable

    def _check(self, args) -> list:
        avals = self.graph.in_avals
        if len(args) != len(avals):
            raise ShapeError("wrong number of inputs", op=f"GraphCell {self.graph.name}",
                             expected=f"{len(avals)} ({', '.join(self.input_names)})",
                             got=len(args))
        datas = []
        for name, aval, a in zip(self.input_names, avals, args):
            data = a._data if isinstance(a, Tensor) else np.asarray(a)
            if tuple(data.shape) != tuple(aval.shape):
                raise ShapeError(f"input {name!r} has another shape than the exported one",
                                 op=f"GraphCell {self.graph.name}", expected=tuple(aval.shape),
                                 got=tuple(data.shape), hint="export again with inputs of "
                                 "this shape")
            if np.dtype(data.dtype) != np.dtype(aval.dtype):
                raise DTypeError(f"input {name!r} has another dtype than the exported one",
                                 op=f"GraphCell {self.graph.name}", expected=str(aval.dtype),
                                 got=str(data.dtype))
            datas.append(data)
        return datas

    def construct(self, *args):
        datas = self._check(args)
        if is_tracing():
            outs = [wrap(o) for o in evaluate(self.graph, *datas)]
        elif is_recording():
            outs = evaluate(self.graph, *(a if isinstance(a, Tensor) else Tensor(a)
                                          for a in args))
        else:
            outs = [wrap(o) for o in self.executable(*datas)]
        if self.out_structure is None and len(outs) == 1:
            return outs[0]
        return unflatten(self.out_structure, outs)

    def extend_repr(self) -> str:
        ins = ", ".join(f"{n}: {a}" for n, a in zip(self.input_names, self.graph.in_avals))
        return f"{self.graph.name}({ins}), {len(self.graph.equations)} equations"
