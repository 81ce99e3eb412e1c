"""ONNX export: a graph -> an ``onnx.ModelProto`` through a table of primitive -> node(s).

Needs ``pip install sporeling-compiler[onnx]``. :data:`~.table.ONNX_TABLE` maps primitive
names to emitters; :func:`~.table.def_onnx` adds one (a plugin's primitive, or the
QuantizeLinear/DequantizeLinear pair of a quantisation pass).
"""
from .converter import OPSET, save_onnx, to_onnx
from .table import ONNX_TABLE, def_onnx

__all__ = ["OPSET", "save_onnx", "to_onnx", "ONNX_TABLE", "def_onnx"]
