"""Sporeling primitives -> MindIR nodes with MindSpore 2.10's primitive names and operand
conventions (as ``mindspore.export`` writes them).

A rule is ``fn(b, eq, ins) -> [output names]``: ``b`` the :class:`~.builder.Builder`,
``eq`` the equation (operand avals: ``eq.inputs[i].aval``; parameters: ``eq.params``),
``ins`` the names of its operands. Most MindSpore 2.10 operations are PRIMITIVE_FUNCTIONs
whose every argument is an input (``MatMul(x, w, transpose_a, transpose_b)``,
``ReduceSum(x, axes, keep_dims, skip_mode)``); Conv2D and MaxPool are PRIMITIVEs whose
arguments are attributes.
"""
from __future__ import annotations

import math

import numpy as np

from sporeling.compiler.core import Aval

from .values import type_id_of

__all__ = ["RULES", "lower"]

RULES: dict = {}

_NCHW = 0       # MindSpore's Format enum, an operand of BiasAdd/AvgPool/BatchNorm
_VALID = 2      # MindSpore's PadMode enum (AvgPool's pad_mode operand)


def rule(*names):
    def register(fn):
        for name in names:
            RULES[name] = fn
        return fn
    return register


def lower(b, eq, ins):
    """The output names of ``eq`` lowered by its rule (the caller checked there is one)."""
    return RULES[eq.prim.name](b, eq, ins)


def _out(eq):
    return eq.outputs[0].aval


# ---- elementwise -------------------------------------------------------------------------

_UNARY = {"neg": "Neg", "abs": "Abs", "exp": "Exp", "log": "Log", "sqrt": "Sqrt",
          "rsqrt": "Rsqrt", "relu": "ReLU", "sigmoid": "Sigmoid", "tanh": "Tanh",
          "erf": "Erf", "sin": "Sin", "cos": "Cos", "floor": "Floor", "ceil": "Ceil",
          "square": "Square", "reciprocal": "Reciprocal", "sign": "Sign",
          "logical_not": "LogicalNot", "expm1": "Expm1", "log1p": "Log1p", "silu": "SiLU"}
_UNARY_PRIMITIVE = {"softplus": "Softplus", "isnan": "IsNan", "isinf": "IsInf",
                    "isfinite": "IsFinite"}  # PRIMITIVEs without attributes in 2.10
_BINARY = {"add": "Add", "sub": "Sub", "mul": "Mul", "div": "Div", "maximum": "Maximum",
           "minimum": "Minimum", "pow": "Pow", "atan2": "Atan2", "floordiv": "FloorDiv",
           "equal": "Equal", "not_equal": "NotEqual", "greater": "Greater",
           "greater_equal": "GreaterEqual", "less": "Less", "less_equal": "LessEqual",
           "logical_and": "LogicalAnd", "logical_or": "LogicalOr"}


def _unary(op, attrs=None):
    def emit(b, eq, ins):
        return [b.node(op, ins, _out(eq), attrs)]
    return emit


for _name, _op in _UNARY.items():
    RULES[_name] = _unary(_op)
for _name, _op in _UNARY_PRIMITIVE.items():
    RULES[_name] = _unary(_op, {})


def _binary(op):
    def emit(b, eq, ins):
        return [b.node(op, ins, _out(eq))]
    return emit


for _name, _op in _BINARY.items():
    RULES[_name] = _binary(_op)


@rule("round")
def _round(b, eq, ins):
    return [b.node("Round", [ins[0], b.value(0)], _out(eq))]  # decimals = 0


@rule("where")
def _where(b, eq, ins):
    return [b.node("Select", ins, _out(eq))]


def _scalar(b, value, dtype) -> str:
    return b.tensor(np.asarray(value, dtype))


@rule("gelu")
def _gelu(b, eq, ins):
    aval = _out(eq)
    if eq.params.get("approximate", "none") == "tanh":
        return [b.node("GeLU", ins, aval)]
    # 0.5 * x * (1 + erf(x / sqrt(2))), as MindSpore writes ops.gelu(approximate='none')
    t = b.node("Erf", [b.node("Mul", [ins[0], _scalar(b, 1 / math.sqrt(2), aval.dtype)],
                              aval)], aval)
    t = b.node("Add", [t, _scalar(b, 1, aval.dtype)], aval)
    t = b.node("Mul", [ins[0], t], aval)
    return [b.node("Mul", [t, _scalar(b, 0.5, aval.dtype)], aval)]


@rule("leaky_relu")
def _leaky_relu(b, eq, ins):
    aval, alpha = _out(eq), eq.params["alpha"]
    scaled = b.node("Mul", [ins[0], _scalar(b, alpha, aval.dtype)], aval)
    op = "Maximum" if alpha <= 1 else "Minimum"
    return [b.node(op, [ins[0], scaled], aval)]


@rule("rsqrt_eps")
def _rsqrt_eps(b, eq, ins):
    aval = _out(eq)
    shifted = b.node("Add", [ins[0], _scalar(b, eq.params["eps"], aval.dtype)], aval)
    return [b.node("Rsqrt", [shifted], aval)]


@rule("cast")
def _cast(b, eq, ins):
    return [b.node("Cast", [ins[0], b.value(type_id_of(_out(eq).dtype))], _out(eq))]


# ---- shapes ------------------------------------------------------------------------------

@rule("reshape")
def _reshape(b, eq, ins):
    return [b.node("Reshape", [ins[0], b.value(tuple(map(int, _out(eq).shape)))], _out(eq))]


@rule("transpose")
def _transpose(b, eq, ins):
    return [b.node("Transpose", [ins[0], b.value(tuple(map(int, eq.params["axes"])))],
                   _out(eq))]


@rule("broadcast_to")
def _broadcast_to(b, eq, ins):
    return [b.node("BroadcastTo", [ins[0], b.value(tuple(map(int, _out(eq).shape)))],
                   _out(eq))]


@rule("concat")
def _concat(b, eq, ins):
    avals = [v.aval for v in eq.inputs]
    pack = b.node("MakeTuple", ins, avals, {})
    return [b.node("Concat", [pack, b.value(int(eq.params["axis"]))], _out(eq))]


# ---- reductions --------------------------------------------------------------------------

def _reduce(op, extra=()):
    def emit(b, eq, ins):
        axis = eq.params["axis"]
        ndim = len(eq.inputs[0].aval.shape)
        axes = tuple(range(ndim)) if axis is None else tuple(int(a) for a in (
            (axis,) if isinstance(axis, int) else axis))
        keep = bool(eq.params["keepdims"])
        return [b.node(op, [ins[0], b.value(axes), b.value(keep),
                            *(b.value(v) for v in extra)], _out(eq))]
    return emit


RULES["sum"] = _reduce("ReduceSum", (False,))   # skip_mode
RULES["mean"] = _reduce("ReduceMean")
RULES["max"] = _reduce("ReduceMax")
RULES["min"] = _reduce("ReduceMin")
RULES["prod"] = _reduce("ReduceProd")


@rule("softmax")
def _softmax(b, eq, ins):
    return [b.node("Softmax", [ins[0], b.value((int(eq.params["axis"]),))], _out(eq))]


@rule("log_softmax")
def _log_softmax(b, eq, ins):
    return [b.node("LogSoftmax", [ins[0], b.value(int(eq.params["axis"]))], _out(eq))]


# ---- linear algebra and convolutions -----------------------------------------------------

@rule("matmul")
def _matmul(b, eq, ins):
    a, w = (v.aval for v in eq.inputs)
    if len(a.shape) < 2 or len(w.shape) < 2:
        raise b.error("a matmul of a vector has no MindIR MatMul", got=f"{a} @ {w}",
                      hint="reshape the vector to a matrix")
    transpose_b, ins = b.transposed_rhs(eq, ins)
    op = "MatMul" if len(a.shape) == len(w.shape) == 2 else "BatchMatMul"
    return [b.node(op, [*ins, b.value(False), b.value(transpose_b)], _out(eq))]


def _pairs(padding):
    return [int(p) for pair in padding for p in pair]


@rule("conv2d")
def _conv2d(b, eq, ins):
    p = eq.params
    out_channel, _, kh, kw = (int(d) for d in eq.inputs[1].aval.shape)
    pad = tuple(_pairs(p["padding"]))                       # (top, bottom, left, right)
    attrs = {"kernel_size": (kh, kw), "mode": 1, "out_channel": out_channel,
             "input_names": ["x", "w"], "pad": pad, "pad_mode": "pad", "format": "NCHW",
             "pad_list": pad, "groups": int(p["groups"]),
             "stride": (1, 1, *map(int, p["stride"])), "group": int(p["groups"]),
             "dilation": (1, 1, *map(int, p["dilation"])), "output_names": ["output"]}
    return [b.node("Conv2D", ins, _out(eq), attrs)]


def _pool_checks(b, eq, what: str):
    p = eq.params
    if any(int(x) for x in _pairs(p["padding"])) or any(
            int(d) != 1 for d in p.get("dilation", (1, 1))):
        raise b.error(f"{what} with padding or dilation has no MindIR {what} form",
                      got=f"padding={p['padding']}, dilation={p.get('dilation', (1, 1))}",
                      hint="pad explicitly before pooling")


@rule("max_pool2d")
def _max_pool2d(b, eq, ins):
    _pool_checks(b, eq, "MaxPool")
    if b.is_used(eq.outputs[1]):
        raise b.error("max_pool2d's indices (used by its backward) have no MindIR form",
                      hint="export an inference graph")
    p = eq.params
    attrs = {"pad_mode": "VALID", "output_names": ["output"],
             "kernel_size": (1, 1, *map(int, p["kernel_size"])), "format": "NCHW",
             "strides": (1, 1, *map(int, p["stride"])), "input_names": ["x"]}
    return [b.node("MaxPool", ins, _out(eq), attrs), None]


@rule("avg_pool2d")
def _avg_pool2d(b, eq, ins):
    _pool_checks(b, eq, "AvgPool")
    p = eq.params
    return [b.node("AvgPool", [ins[0], b.value(tuple(map(int, p["kernel_size"]))),
                               b.value(tuple(map(int, p["stride"]))), b.value(_VALID),
                               b.value(_NCHW)], _out(eq))]


def bias_add(b, x: str, bias: str, aval) -> str:
    """MindSpore's Dense bias: ``BiasAdd(x, b, data_format)``."""
    return b.node("BiasAdd", [x, bias, b.value(_NCHW)], aval)


# ---- slicing -----------------------------------------------------------------------------

def _strided_slice(b, eq, ins, triples, ints=()):
    """``StridedSlice(x, begin, end, strides, begin_mask, end_mask, 0, 0,
    shrink_axis_mask)`` over normalised ``(start, stop, step)`` per axis (a stop of None
    runs to the end: an end-mask bit), the ``ints`` axes dropped; a Reshape to the result's
    shape adds the new axes of ``x[..., None]``."""
    begin, end, strides, end_mask, shrink = [], [], [], 0, 0
    for axis, (start, stop, step) in enumerate(triples):
        begin.append(int(start))
        strides.append(int(step))
        if stop is None or (step < 0 and stop < 0):
            end_mask |= 1 << axis
            end.append(0)
        else:
            end.append(int(stop))
        if axis in ints:
            shrink |= 1 << axis
    out = _out(eq)
    kept = [len(range(*slice(s, e if not end_mask >> i & 1 else None, st).indices(n)))
            for i, (n, s, e, st) in enumerate(zip(eq.inputs[0].aval.shape, begin, end,
                                                   strides)) if i not in ints]
    y = b.node("StridedSlice", [ins[0], b.value(tuple(begin)), b.value(tuple(end)),
                                b.value(tuple(strides)), b.value(0), b.value(end_mask),
                                b.value(0), b.value(0), b.value(shrink)],
               Aval(tuple(kept), out.dtype))
    if tuple(kept) != tuple(out.shape):
        y = b.node("Reshape", [y, b.value(tuple(map(int, out.shape)))], out)
    return [y]


@rule("slice")
def _slice(b, eq, ins):
    return _strided_slice(b, eq, ins, eq.params["slices"])


@rule("getitem")
def _getitem(b, eq, ins):
    """Basic indexing (ints, slices, None, Ellipsis); index tensors have no rule here."""
    shape = tuple(eq.inputs[0].aval.shape)
    key = list(eq.params["key"])
    basic = all(k is None or k is Ellipsis or isinstance(k, int) or
                (isinstance(k, tuple) and len(k) == 3) for k in key)
    if len(eq.inputs) > 1 or not basic:
        raise b.error("indexing with index tensors has no MindIR lowering here",
                      got=repr(eq.params["key"]), hint="use gather or a mask instead")
    real = [k for k in key if k is not None and k is not Ellipsis]
    if Ellipsis in key:
        at = key.index(Ellipsis)
        key[at:at + 1] = [(None, None, None)] * (len(shape) - len(real))
    key = [k for k in key if k is not None]
    key += [(None, None, None)] * (len(shape) - len(key))
    triples, ints = [], set()
    for axis, (n, k) in enumerate(zip(shape, key)):
        if isinstance(k, int):
            i = k % n
            triples.append((i, i + 1, 1))
            ints.add(axis)
        else:
            start, stop, step = slice(*k).indices(n)
            triples.append((start, None if step < 0 and stop < 0 else stop, step))
    return _strided_slice(b, eq, ins, triples, ints)


@rule("pad")
def _pad(b, eq, ins):
    """Zero padding is MindSpore's ``Pad`` (a PRIMITIVE with ``paddings``); another fill
    value is ``PadV3(x, padding, value)``, padding listed from the last axis back."""
    p = eq.params
    if p["mode"] != "constant":
        raise b.error(f"pad mode {p['mode']!r} has no MindIR lowering here",
                      expected="'constant'")
    width = tuple((int(a), int(c)) for a, c in p["pad_width"])
    if not p["value"]:
        return [b.node("Pad", ins, _out(eq), {"paddings": width})]
    flat = tuple(n for pair in reversed(width) for n in pair)
    value = _scalar(b, p["value"], _out(eq).dtype)
    return [b.node("PadV3", [ins[0], b.value(flat), value], _out(eq),
                   {"mode": "constant", "paddings_contiguous": True})]
