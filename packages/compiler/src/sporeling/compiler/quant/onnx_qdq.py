"""The quantised graph in ONNX's QDQ form, and the ONNX mappings of quantize/dequantize.

ONNX runtimes take int8 models as float graphs with QuantizeLinear/DequantizeLinear pairs
around each float operation (the "QDQ" format) and fuse them into integer kernels
themselves. :func:`to_qdq` rewrites the pass's int8 compute back into that form:

    xq  = quantize(x, s_x, z_x)                      xq = quantize(x, s_x, z_x)
    acc = qconv2d(xq, Wq, x_zero_point=z_x)    ->    xd = dequantize(xq, s_x, z_x)
    y   = dequantize(acc, s_x * s_w, 0, axis=1)      wd = dequantize(Wq, s_w, 0, axis=0)
                                                     y  = conv2d(xd, wd)

(``qmatmul`` likewise, its weight's channels on axis 1), so that the export's table maps
every equation: ``quantize`` -> QuantizeLinear, ``dequantize`` -> DequantizeLinear
(registered here with :func:`~sporeling.compiler.export.onnx.def_onnx`), the float
operations as usual. The weights stay int8 initializers.
"""
from __future__ import annotations

import numpy as np

from ..export.onnx.table import def_onnx
from ..ir import Const, Equation, Graph, IRError
from ..passes.base import PassContext
from ..passes.dce import eliminate_dead_code
from ..passes.rewrite import Rewriter, rewrite
from .primitives import dequantize_p

__all__ = ["to_qdq"]


@def_onnx("quantize")
def _quantize(b, eq, ins, outs, *, axis):
    b.node("QuantizeLinear", ins, outs, **({} if axis is None else {"axis": int(axis)}))


@def_onnx("dequantize")
def _dequantize(b, eq, ins, outs, *, axis):
    b.node("DequantizeLinear", ins, outs, **({} if axis is None else {"axis": int(axis)}))


def _const(v, what: str, where: str) -> np.ndarray:
    if not isinstance(v, Const):
        raise IRError(f"{what} is not a constant", where=where, expected="a Const",
                      got=repr(v))
    return v.value


def to_qdq(graph: Graph, ctx: PassContext | None = None) -> Graph:
    """``graph`` (from :func:`~.ptq.quantize_graph`) with each int8 convolution / matmul
    and its dequantize as QDQ around the float operation (same values up to float32
    rounding of the sums)."""
    ctx = ctx if ctx is not None else PassContext()

    def rule(eq: Equation, rw: Rewriter):
        if eq.prim.name != "dequantize":
            return None
        compute = rw.producer(eq.inputs[0])
        if compute is None or compute.prim.name not in ("qconv2d", "qmatmul"):
            return None
        where = f"{graph.name}, {compute.prim.name} ({compute.source})"
        quant = rw.producer(compute.inputs[0])
        if quant is None or quant.prim.name != "quantize" or quant.params["axis"] is not None:
            raise IRError("an int8 operation's input does not come from a per-tensor quantize",
                          where=where, got=quant.prim.name if quant else "a graph input")
        s_x = _const(quant.inputs[1], "the input scale", where)
        combined = _const(eq.inputs[1], "the output scale", where)
        w_q = _const(compute.inputs[1], "the int8 weight", where)
        s_w = (combined / s_x).astype(np.float32)
        x_d = rw.bind(dequantize_p, compute.inputs[0], quant.inputs[1], quant.inputs[2],
                      axis=None)
        axis = 0 if compute.prim.name == "qconv2d" else 1
        w_d = rw.bind(dequantize_p, Const(w_q), Const(s_w),
                      Const(np.zeros(s_w.shape, np.int8)), axis=axis)
        ctx.count("qdq.rewritten")
        if compute.prim.name == "qconv2d":
            params = {k: v for k, v in compute.params.items() if k != "x_zero_point"}
            return rw.bind("conv2d", x_d, w_d, **params)
        return rw.bind("matmul", x_d, w_d)

    return eliminate_dead_code(rewrite(graph, rule, ctx, recurse=False), ctx)
