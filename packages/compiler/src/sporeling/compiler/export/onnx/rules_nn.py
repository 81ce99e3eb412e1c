"""Neural-network primitives, reductions and random draws."""
from __future__ import annotations

import numpy as np

from .builder import Batch
from .rules_elementwise import onnx_dtype
from .table import def_onnx


def _pads(padding) -> list[int]:
    """Sporeling's ((top, bottom), (left, right)) as ONNX's [top, left, bottom, right]."""
    return [int(p[0]) for p in padding] + [int(p[1]) for p in padding]


@def_onnx("matmul")
def _matmul(b, eq, ins, outs):
    b.node("MatMul", ins, outs)


@def_onnx("einsum")
def _einsum(b, eq, ins, outs, *, subscripts):
    b.node("Einsum", ins, outs, equation=subscripts)


@def_onnx("conv2d")
def _conv2d(b, eq, ins, outs, *, stride, padding, dilation, groups):
    kh, kw = eq.inputs[1].aval.shape[2:]
    b.node("Conv", ins, outs, strides=list(stride), pads=_pads(padding),
           dilations=list(dilation), group=int(groups), kernel_shape=[int(kh), int(kw)])


@def_onnx("conv_transpose2d")
def _conv_transpose2d(b, eq, ins, outs, *, stride, padding, dilation, groups,
                      output_padding):
    kh, kw = eq.inputs[1].aval.shape[2:]
    b.node("ConvTranspose", ins, outs, strides=list(stride), pads=_pads(padding),
           dilations=list(dilation), group=int(groups), kernel_shape=[int(kh), int(kw)],
           output_padding=list(output_padding))


@def_onnx("max_pool2d")
def _max_pool2d(b, eq, ins, outs, *, kernel_size, stride, padding, dilation):
    if b.is_used(eq.outputs[1]):
        raise b.error("max_pool2d's indices (used by its backward) have no ONNX equivalent",
                      hint="export an inference graph")
    b.node("MaxPool", ins, outs[:1], kernel_shape=list(kernel_size), strides=list(stride),
           pads=_pads(padding), dilations=list(dilation))


@def_onnx("avg_pool2d")
def _avg_pool2d(b, eq, ins, outs, *, kernel_size, stride, padding, count_include_pad):
    b.node("AveragePool", ins, outs, kernel_shape=list(kernel_size), strides=list(stride),
           pads=_pads(padding), count_include_pad=int(bool(count_include_pad)))


@def_onnx("softmax")
def _softmax(b, eq, ins, outs, *, axis):
    b.node("Softmax", ins, outs, axis=int(axis))


@def_onnx("log_softmax")
def _log_softmax(b, eq, ins, outs, *, axis):
    b.node("LogSoftmax", ins, outs, axis=int(axis))


@def_onnx("normalize")
def _normalize(b, eq, ins, outs, *, axis, eps):
    """(y, mean, var) with y = (x - mean) / sqrt(var + eps), statistics over ``axis``."""
    dtype = eq.inputs[0].aval.dtype
    axes = [int(a) for a in axis]
    mean = b.one("ReduceMean", ins, outs[1], axes=axes, keepdims=1)
    d = b.one("Sub", [ins[0], mean])
    var = b.one("ReduceMean", [b.one("Mul", [d, d])], outs[2], axes=axes, keepdims=1)
    std = b.one("Sqrt", [b.one("Add", [var, b.const(np.asarray(eps, dtype))])])
    b.node("Div", [d, std], outs[:1])


@def_onnx("embedding")
def _embedding(b, eq, ins, outs, *, padding_idx):
    b.node("Gather", [ins[1], ins[0]], outs, axis=0)


@def_onnx("gather")
def _gather(b, eq, ins, outs, *, axis):
    b.node("Gather", ins, outs, axis=int(axis))


@def_onnx("take_along_axis")
def _take_along_axis(b, eq, ins, outs, *, axis):
    b.node("GatherElements", ins, outs, axis=int(axis))


@def_onnx("one_hot")
def _one_hot(b, eq, ins, outs, *, depth, dtype):
    values = b.const(np.asarray([0, 1], dtype))
    b.node("OneHot", [ins[0], b.ints([depth]), values], outs, axis=-1)


# ---- reductions ------------------------------------------------------------------------------

def _axes(eq, axis) -> list[int]:
    ndim = len(eq.inputs[0].aval.shape)
    if axis is None:
        return list(range(ndim))
    axis = (axis,) if isinstance(axis, int) else axis
    return [int(a) % ndim for a in axis]


def _reduce(op):
    def emit(b, eq, ins, outs, *, axis, keepdims, **params):
        axes = _axes(eq, axis)
        if not axes:
            b.node("Identity", ins, outs)
        elif op == "ReduceSum":  # opset 13+: axes is an input
            b.node(op, [ins[0], b.ints(axes)], outs, keepdims=int(bool(keepdims)))
        else:
            b.node(op, ins, outs, axes=axes, keepdims=int(bool(keepdims)))
    return emit


for _name, _op in {"sum": "ReduceSum", "mean": "ReduceMean", "max": "ReduceMax",
                   "min": "ReduceMin", "prod": "ReduceProd",
                   "logsumexp": "ReduceLogSumExp"}.items():
    def_onnx(_name)(_reduce(_op))


def _arg(op):
    def emit(b, eq, ins, outs, *, axis, keepdims):
        x = ins[0]
        if axis is None:
            x, axis = b.one("Reshape", [x, b.ints([-1])]), 0
        b.node(op, [x], outs, axis=int(axis), keepdims=int(bool(keepdims)))
    return emit


def_onnx("argmax")(_arg("ArgMax"))
def_onnx("argmin")(_arg("ArgMin"))


def _moments(root: bool):
    def emit(b, eq, ins, outs, *, axis, keepdims, ddof=0, **params):
        axes = _axes(eq, axis)
        dtype = eq.inputs[0].aval.dtype
        mean = b.one("ReduceMean", ins, axes=axes, keepdims=1)
        d = b.one("Sub", [ins[0], mean])
        var = b.one("ReduceMean", [b.one("Mul", [d, d])], axes=axes,
                    keepdims=int(bool(keepdims)))
        if ddof:
            n = int(np.prod([eq.inputs[0].aval.shape[a] for a in axes]))
            var = b.one("Mul", [var, b.const(np.asarray(n / (n - ddof), dtype))])
        b.node("Sqrt" if root else "Identity", [var], outs)
    return emit


def_onnx("var")(_moments(False))
def_onnx("std")(_moments(True))


# ---- random draws ----------------------------------------------------------------------------

@def_onnx("rng_seed")
def _rng_seed(b, eq, ins, outs):
    # ONNX's random ops draw from the runtime's generator: the seed operand is unused
    b.node("Identity", [b.const(np.zeros(eq.outputs[0].aval.shape,
                                         eq.outputs[0].aval.dtype))], outs)


def _random(op):
    def emit(b, eq, ins, outs, *, shape, dtype, **params):
        attrs = ({"mean": float(params.get("mean", 0.0)),
                  "scale": float(params.get("stddev", 1.0))} if op == "Normal" else
                 {"low": float(params.get("low", params.get("minval", 0.0))),
                  "high": float(params.get("high", params.get("maxval", 1.0)))})
        to = onnx_dtype(b, dtype)
        if any(isinstance(d, Batch) for d in shape):
            like = b.one("ConstantOfShape", [b.shape_tensor(shape)])
            b.node(f"Random{op}Like", [like], outs, dtype=to, **attrs)
        else:
            b.node(f"Random{op}", [], outs, shape=[int(d) for d in shape], dtype=to, **attrs)
    return emit


def_onnx("normal", dynamic=True)(_random("Normal"))
def_onnx("uniform", dynamic=True)(_random("Uniform"))
