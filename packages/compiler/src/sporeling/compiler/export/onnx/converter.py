"""A graph -> an ONNX model (opset :data:`OPSET`), one table entry per primitive."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ...ir import Graph, Var
from ..errors import ONNXExportError
from .batch import batch_consts, batch_params
from .builder import Batch, Builder
from .table import lookup

__all__ = ["OPSET", "to_onnx", "save_onnx"]

OPSET = 17


def _import_onnx():
    try:
        import onnx
    except ImportError as exc:
        raise ONNXExportError("ONNX export needs the onnx package", op="to_onnx",
                              hint="pip install 'sporeling-compiler[onnx]'") from exc
    return onnx


def _used(graph: Graph) -> set:
    used = {v for v in graph.outputs if isinstance(v, Var)}
    for eq in graph.equations:
        used.update(v for v in eq.inputs if isinstance(v, Var))
    return used


def to_onnx(graph: Graph, *, input_names=None, output_names=None, batch_graph: Graph = None,
            batch: int | None = None, name: str | None = None, opset: int = OPSET):
    """``graph`` as a checked ``onnx.ModelProto``.

    With ``batch_graph`` (the same network traced at batch size ``batch + 1``; ``graph``
    at ``batch``), axis 0 of every input and output is a dynamic ``batch`` dimension.
    A primitive without a table entry is an :class:`ONNXExportError` naming it.
    """
    onnx = _import_onnx()
    if opset < 17:
        raise ONNXExportError("opset too old", op="to_onnx", expected=">= 17", got=opset)
    helper = onnx.helper
    input_names = list(input_names or [f"input{i}" for i in range(len(graph.inputs))])
    output_names = list(output_names or [f"output{i}" for i in range(len(graph.outputs))])
    dynamic = batch_graph is not None
    params = batch_params(graph, batch_graph, batch) if dynamic else [
        eq.params for eq in graph.equations]
    rows = batch_consts(graph, batch_graph, batch) if dynamic else {}
    b = Builder(onnx, input_names[0] if dynamic and input_names else None)
    used = _used(graph)
    b.is_used = lambda v: v in used
    names: dict = dict(zip(graph.inputs, input_names))

    def name_of(v) -> str:
        if isinstance(v, Var):
            return names[v]
        if id(v) in rows:
            row = rows[id(v)]
            return b.one("Expand", [b.const(row), b.shape_tensor(
                (Batch(1), *row.shape[1:]))])
        return b.const(v.value)

    for eq, eq_params in zip(graph.equations, params):
        b.where = f"{eq.prim.name} ({eq.source})" if eq.source else eq.prim.name
        rule = lookup(eq.prim.name)
        if rule is None:
            raise ONNXExportError(f"primitive {eq.prim.name!r} has no ONNX mapping",
                                  op="to_onnx", where=eq.source,
                                  hint="add one with sporeling.compiler.export.onnx.def_onnx")
        if not rule.dynamic:
            b.static(eq_params, "a parameter")
        ins = [name_of(v) for v in eq.inputs]
        outs = [b.fresh(eq.prim.name) for _ in eq.outputs]
        names.update(zip(eq.outputs, outs))
        rule.emit(b, eq, ins, outs, **eq_params)
    # outputs: a graph output may be an input or a constant: give each its own name
    for v, out_name in zip(graph.outputs, output_names):
        b.node("Identity", [name_of(v)], [out_name])

    def info(n, aval):
        dims = list(aval.shape)
        if dynamic and dims:
            dims[0] = "batch"
        return helper.make_tensor_value_info(
            n, helper.np_dtype_to_tensor_dtype(np.dtype(aval.dtype)), dims)

    onnx_graph = helper.make_graph(
        b.nodes, name or graph.name,
        [info(n, v.aval) for n, v in zip(input_names, graph.inputs)],
        [info(n, v.aval) for n, v in zip(output_names, graph.outputs)],
        initializer=b.initializers)
    model = helper.make_model(onnx_graph, opset_imports=[helper.make_opsetid("", opset)],
                              producer_name="sporeling")
    model.ir_version = min(model.ir_version, 8)  # readable by onnxruntime >= 1.14
    onnx.checker.check_model(model, full_check=True)
    return model


def save_onnx(graph: Graph, path, **kwargs) -> Path:
    """:func:`to_onnx` written to ``path``; returns the path."""
    onnx = _import_onnx()
    path = Path(path)
    model = to_onnx(graph, **kwargs)
    onnx.save(model, str(path))
    return path
