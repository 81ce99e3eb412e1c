"""Elementwise primitives: one ONNX op each where one exists, small compositions where not
(square, rsqrt, log1p, expm1, gelu, silu...). Broadcasting is NumPy's in both."""
from __future__ import annotations

import math

import numpy as np

from ..errors import ONNXExportError
from .table import def_onnx

_SAME = {
    "add": "Add", "sub": "Sub", "mul": "Mul", "div": "Div", "pow": "Pow",
    "maximum": "Max", "minimum": "Min", "equal": "Equal", "less": "Less",
    "less_equal": "LessOrEqual", "greater": "Greater", "greater_equal": "GreaterOrEqual",
    "logical_and": "And", "logical_or": "Or", "logical_xor": "Xor", "logical_not": "Not",
    "neg": "Neg", "exp": "Exp", "log": "Log", "sqrt": "Sqrt", "abs": "Abs", "tanh": "Tanh",
    "sigmoid": "Sigmoid", "relu": "Relu", "erf": "Erf", "sin": "Sin", "cos": "Cos",
    "floor": "Floor", "ceil": "Ceil", "reciprocal": "Reciprocal", "sign": "Sign",
    "round": "Round", "softplus": "Softplus", "isnan": "IsNaN", "isinf": "IsInf",
    "where": "Where",
}


def _same(op):
    def emit(b, eq, ins, outs, **params):
        b.node(op, ins, outs)
    return emit


for _name, _op in _SAME.items():
    def_onnx(_name)(_same(_op))


def _scalar(b, eq, value):
    return b.const(np.asarray(value, eq.inputs[0].aval.dtype))


@def_onnx("not_equal")
def _not_equal(b, eq, ins, outs):
    b.node("Not", [b.one("Equal", ins)], outs)


@def_onnx("square")
def _square(b, eq, ins, outs):
    b.node("Mul", [ins[0], ins[0]], outs)


@def_onnx("rsqrt")
def _rsqrt(b, eq, ins, outs):
    b.node("Reciprocal", [b.one("Sqrt", ins)], outs)


@def_onnx("rsqrt_eps")
def _rsqrt_eps(b, eq, ins, outs, *, eps):
    b.node("Reciprocal", [b.one("Sqrt", [b.one("Add", [ins[0], _scalar(b, eq, eps)])])], outs)


@def_onnx("log1p")
def _log1p(b, eq, ins, outs):
    b.node("Log", [b.one("Add", [ins[0], _scalar(b, eq, 1.0)])], outs)


@def_onnx("expm1")
def _expm1(b, eq, ins, outs):
    b.node("Sub", [b.one("Exp", ins), _scalar(b, eq, 1.0)], outs)


@def_onnx("isfinite")
def _isfinite(b, eq, ins, outs):
    bad = b.one("Or", [b.one("IsNaN", ins), b.one("IsInf", ins)])
    b.node("Not", [bad], outs)


@def_onnx("silu")
def _silu(b, eq, ins, outs):
    b.node("Mul", [ins[0], b.one("Sigmoid", ins)], outs)


@def_onnx("leaky_relu")
def _leaky_relu(b, eq, ins, outs, *, alpha):
    b.node("LeakyRelu", ins, outs, alpha=float(alpha))


@def_onnx("pow_scalar")
def _pow_scalar(b, eq, ins, outs, *, exponent):
    b.node("Pow", [ins[0], _scalar(b, eq, exponent)], outs)


@def_onnx("clip_scalar")
def _clip_scalar(b, eq, ins, outs, *, min=None, max=None):  # noqa: A002 (the params' names)
    lo = "" if min is None else _scalar(b, eq, min)
    hi = "" if max is None else _scalar(b, eq, max)
    b.node("Clip", [ins[0], lo, hi], outs)


@def_onnx("clip")
def _clip(b, eq, ins, outs, *, has_min, has_max):
    rest = list(ins[1:])
    lo = rest.pop(0) if has_min else ""
    hi = rest.pop(0) if has_max else ""
    # Clip wants scalar bounds; tensor bounds are Max/Min (NumPy's clip does the same)
    y = ins[0]
    if lo:
        y = b.one("Max", [y, lo])
    if hi:
        y = b.one("Min", [y, hi])
    b.node("Identity", [y], outs)


@def_onnx("gelu")
def _gelu(b, eq, ins, outs, *, approximate):
    x = ins[0]
    half = b.one("Mul", [x, _scalar(b, eq, 0.5)])
    if approximate == "tanh":  # 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
        cube = b.one("Mul", [b.one("Mul", [x, x]), x])
        inner = b.one("Add", [x, b.one("Mul", [cube, _scalar(b, eq, 0.044715)])])
        t = b.one("Tanh", [b.one("Mul", [inner, _scalar(b, eq, math.sqrt(2 / math.pi))])])
    elif approximate == "none":  # 0.5 x (1 + erf(x / sqrt 2))
        t = b.one("Erf", [b.one("Mul", [x, _scalar(b, eq, 1 / math.sqrt(2))])])
    else:
        raise ONNXExportError("unknown gelu approximation", op="gelu",
                              expected="'none' or 'tanh'", got=repr(approximate))
    b.node("Mul", [half, b.one("Add", [t, _scalar(b, eq, 1.0)])], outs)


@def_onnx("cast")
def _cast(b, eq, ins, outs, *, dtype):
    b.node("Cast", ins, outs, to=onnx_dtype(b, dtype))


def onnx_dtype(b, dtype) -> int:
    """The ONNX TensorProto element type of a NumPy dtype."""
    try:
        return b.helper.np_dtype_to_tensor_dtype(np.dtype(dtype))
    except (KeyError, TypeError) as exc:
        raise b.error("a dtype ONNX does not have", got=str(dtype)) from exc
