"""``export`` and ``load``: a network and example inputs to a file, a file to a GraphCell.

    >>> import numpy as np, tempfile, os
    >>> import sporeling.expression as sx
    >>> net = sx.nn.Dense(3, 2)
    >>> x = sx.Tensor(np.ones((4, 3), np.float32))
    >>> path = sx.export(net, x, file_name=os.path.join(tempfile.mkdtemp(), "dense"))
    >>> path.name
    'dense.sir'
    >>> cell = sx.load(path)
    >>> bool(np.array_equal(cell(x).asnumpy(), net(x).asnumpy()))
    True
"""
from __future__ import annotations

import contextlib
import os
from pathlib import Path

import numpy as np

from sporeling.compiler.export import (MAX_GRAPH_BYTES, ExportError, bind_constants,
                                       load_sir, prepare_for_export, save_sir)
from sporeling.core import ArgumentError

from .. import structure_epoch
from ..graph.tracing import ARRAY_LEAF, trace
from ..nn import Cell
from ..tensor.tensor import Tensor
from .graph_cell import GraphCell
from .meta import meta_from_json, meta_to_json
from .structure import structure_to_json

__all__ = ["export", "load", "FORMATS"]

FORMATS = {"SIR": ".sir", "ONNX": ".onnx"}


@contextlib.contextmanager
def _inference(net):
    """Inference mode (BatchNorm's moving statistics, no dropout) for the trace."""
    if not isinstance(net, Cell):
        yield
        return
    modes = [(c, c.training) for _, c in net.cells_and_names()]
    net.set_train(False)
    try:
        yield
    finally:
        for cell, mode in modes:
            cell.__dict__["training"] = mode
        structure_epoch.changed()


def _check_inputs(inputs: tuple) -> None:
    if not inputs:
        raise ExportError("export needs example inputs", op="export",
                          expected="net and one Tensor or array per input", got="none")
    for i, x in enumerate(inputs):
        if not isinstance(x, (Tensor, np.ndarray)):
            raise ExportError(f"input {i} is not a Tensor or an array", op="export",
                              expected="Tensor or numpy.ndarray", got=type(x).__name__)


def _export_graph(net, inputs: tuple, level: str):
    """The optimised inference graph of ``net(*inputs)``, its output structure and the
    input names."""
    _check_inputs(inputs)
    name = type(net).__name__ if isinstance(net, Cell) else getattr(net, "__name__", "graph")
    with _inference(net):
        traced, _ = trace(net, tuple(inputs), {}, name)
    if any(s is not ARRAY_LEAF for s in traced.out_static):
        raise ExportError("the network returns values that are not tensors", op="export",
                          expected="Tensors (in tuples, lists or dicts)",
                          got=[type(s).__name__ for s in traced.out_static
                               if s is not ARRAY_LEAF])
    graph = traced.graph
    n_out = len(graph.outputs) - len(traced.effect_params)
    graph.outputs = graph.outputs[:n_out]  # an inference graph writes no moving statistics
    values = [p._data for p in traced.params] + [
        c._data if isinstance(c, Tensor) else c for c in traced.captured]
    graph = prepare_for_export(bind_constants(graph, values, keep=traced.n_args), level)
    return graph, traced.out_tree, [f"input{i}" for i in range(len(inputs))]


def export(net, *inputs, file_name: str, file_format: str = "SIR", level: str = "O1",
           dynamic_batch: bool = True) -> Path:
    """Trace ``net(*inputs)`` in inference mode and write it to ``file_name`` (the format's
    suffix, ``.sir`` or ``.onnx``, is added when missing); returns the path.

    ``file_format``: ``"SIR"`` (Sporeling's serialized IR, loaded by :func:`load`) or
    ``"ONNX"`` (opset 17; needs ``pip install sporeling-compiler[onnx]``; the first axis of
    every input and output is a dynamic batch axis unless ``dynamic_batch=False``).
    Weights become constants of the graph, optimised at ``level`` (folding, simplification,
    CSE, DCE; fusion is redone when loading).
    """
    fmt = str(file_format).upper()
    if fmt not in FORMATS:
        raise ExportError("unknown export format", op="export",
                          expected=" or ".join(FORMATS), got=repr(file_format))
    _check_inputs(inputs)
    path = Path(file_name)
    if path.suffix.lower() != FORMATS[fmt]:
        path = path.with_name(path.name + FORMATS[fmt])
    if fmt == "ONNX":
        return _save_onnx(net, inputs, path, [f"input{i}" for i in range(len(inputs))],
                          dynamic_batch)
    graph, out_tree, input_names = _export_graph(net, inputs, level)
    meta = meta_to_json(input_names, structure_to_json(out_tree), graph.name)
    return save_sir(graph, path, meta=meta)


def _rows(x, n: int):
    """``x`` with ``n`` rows on axis 0 (its rows repeated): the same network at batch n."""
    data = x.asnumpy() if isinstance(x, Tensor) else np.asarray(x)
    if data.ndim == 0:
        raise ExportError("a dynamic batch axis needs inputs with a first axis", op="export",
                          got="a 0-d input", hint="pass dynamic_batch=False")
    return data[np.arange(n) % data.shape[0]]


def _save_onnx(net, inputs, path, input_names, dynamic_batch: bool) -> Path:
    """ONNX from the unoptimised inference graph (onnxruntime optimises it itself); with a
    dynamic batch, traced at two batch sizes to find what depends on the batch."""
    from sporeling.compiler.export.onnx import save_onnx
    batches = {(x.shape[0] if len(x.shape) else None) for x in inputs}
    if dynamic_batch and len(batches) != 1:
        raise ExportError("a dynamic batch axis needs one batch size for all inputs",
                          op="export", got=sorted(map(str, batches)),
                          hint="pass dynamic_batch=False")
    if not dynamic_batch:
        graph, _, _ = _export_graph(net, inputs, "O0")
        return save_onnx(graph, path, input_names=input_names, output_names=_outs(graph))
    n = max(2, batches.pop())  # at batch 1 some shapes coincide and ops simplify away
    graph, _, _ = _export_graph(net, tuple(_rows(x, n) for x in inputs), "O0")
    other, _, _ = _export_graph(net, tuple(_rows(x, n + 1) for x in inputs), "O0")
    return save_onnx(graph, path, input_names=input_names, output_names=_outs(graph),
                     batch_graph=other, batch=n)


def _outs(graph) -> list[str]:
    return [f"output{i}" for i in range(len(graph.outputs))]


def load(file_name, *, max_graph_bytes: int = MAX_GRAPH_BYTES,
         max_constants_bytes: int | None = None) -> GraphCell:
    """The :class:`GraphCell` stored in a SIR file by :func:`export` (MindSpore's ``load``
    + ``nn.GraphCell``). Nothing in the file is executed as code: it needs only Sporeling
    and the plugins defining its primitives, not the model's source. The limits bound
    what the file's members may inflate to (see ``sporeling.compiler.export.load_sir``);
    raise them only for a trusted file."""
    if not isinstance(file_name, (str, os.PathLike)):
        raise ArgumentError("bad file_name", op="load", expected="a path (str or os.PathLike)",
                            got=f"{type(file_name).__name__} {file_name!r}"[:80])
    graph, meta = load_sir(file_name, max_graph_bytes=max_graph_bytes,
                           max_constants_bytes=max_constants_bytes)
    structure, input_names = meta_from_json(meta, graph, str(file_name))
    return GraphCell(graph, out_structure=structure, input_names=input_names, meta=meta)
