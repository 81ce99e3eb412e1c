"""Export: graphs to files that run without the Python source that built them.

* **SIR** (Sporeling serialized IR, ``docs/sir-format.md``): a zip holding ``graph.json``
  (the graph: primitives by name, parameters as tagged JSON, no code) and
  ``constants.safetensors`` (its arrays). :func:`save_sir` / :func:`load_sir`.
* **ONNX**: :func:`to_onnx` (needs the ``onnx`` extra), a table of primitive -> ONNX
  node(s) at opset 17 (:mod:`.onnx.table`).

The Python API users call is ``sporeling.expression.export`` / ``load``.
"""
from .errors import ExportError, ONNXExportError, SIRError
from .graph_prep import bind_constants, export_passes, prepare_for_export
from .sir import (MAX_GRAPH_BYTES, MAX_JSON_DEPTH, SIR_FORMAT, SIR_VERSION, SUPPORTED_VERSIONS,
                  load_sir, save_sir)
from .sir_codec import decode_graph, encode_graph

__all__ = ["ExportError", "ONNXExportError", "SIRError", "bind_constants", "export_passes",
           "prepare_for_export", "SIR_FORMAT", "SIR_VERSION", "SUPPORTED_VERSIONS",
           "MAX_GRAPH_BYTES", "MAX_JSON_DEPTH",
           "load_sir", "save_sir", "decode_graph", "encode_graph", "to_onnx"]


def to_onnx(graph, **kwargs):
    """``graph`` as an ``onnx.ModelProto`` (see :func:`.onnx.converter.to_onnx`)."""
    from .onnx.converter import to_onnx as convert
    return convert(graph, **kwargs)
