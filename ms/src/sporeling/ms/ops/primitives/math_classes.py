"""Element-wise, reduction, comparison, matrix and creation primitive classes (MindSpore
r2.3): thin adapters over sx ops."""
from __future__ import annotations

import numpy as np

from sporeling.ms.common.dtype import to_numpy

from ..functional_array._common import full_like, tensor
from ._args import arg, axes, check, ops
from .base import primitive

__all__ = ["Abs", "Add", "AddN", "Cos", "Div", "Exp", "Floor", "FloorDiv", "Log", "Mul", "Neg",
           "Pow", "RealDiv", "Reciprocal", "Sin", "Sqrt", "Square", "Sub", "Argmax",
           "ArgMaxWithValue", "Argmin", "ReduceMax", "ReduceMean", "ReduceMin", "ReduceProd",
           "ReduceSum", "Equal", "Greater", "GreaterEqual", "Less", "LessEqual", "Maximum",
           "Minimum", "NotEqual", "BatchMatMul", "MatMul", "Fill", "OnesLike", "OneHot",
           "ZerosLike"]


def _no_attrs():
    pass


def _unary(name, fn, doc, float_only=False):
    def call(self, x):
        x = tensor(x)
        if float_only and x.dtype.kind != "f":
            x = ops.cast(x, np.float32)
        return fn(x)
    return primitive(name, _no_attrs, call, doc)


def _binary(name, fn, doc):
    def call(self, x, y):
        x, y = arg(x), arg(y)
        if not hasattr(x, "shape") and not hasattr(y, "shape"):
            x = tensor(x)
        return fn(x, y)
    return primitive(name, _no_attrs, call, doc)


Abs = _unary("Abs", ops.abs, "|x| element-wise: ``ops.Abs()(x)``.")
Neg = _unary("Neg", ops.neg, "-x: ``ops.Neg()(x)``.")
Square = _unary("Square", ops.square, "x * x: ``ops.Square()(x)``.")
Floor = _unary("Floor", ops.floor, "Round down: ``ops.Floor()(x)``.")
Exp = _unary("Exp", ops.exp, "e^x: ``ops.Exp()(x)``.", True)
Log = _unary("Log", ops.log, "Natural logarithm: ``ops.Log()(x)``.", True)
Sqrt = _unary("Sqrt", ops.sqrt, "Square root: ``ops.Sqrt()(x)``.", True)
Sin = _unary("Sin", ops.sin, "``ops.Sin()(x)``.", True)
Cos = _unary("Cos", ops.cos, "``ops.Cos()(x)``.", True)
Reciprocal = _unary("Reciprocal", ops.reciprocal, "1 / x: ``ops.Reciprocal()(x)``.", True)

Add = _binary("Add", ops.add, "x + y (broadcasting): ``ops.Add()(x, y)``.")
Sub = _binary("Sub", ops.sub, "x - y: ``ops.Sub()(x, y)``.")
Mul = _binary("Mul", ops.mul, "x * y: ``ops.Mul()(x, y)``.")
Div = _binary("Div", ops.div, "x / y: ``ops.Div()(x, y)``.")
RealDiv = _binary("RealDiv", ops.div, "x / y for floats: ``ops.RealDiv()(x, y)``.")
FloorDiv = _binary("FloorDiv", ops.floordiv, "floor(x / y): ``ops.FloorDiv()(x, y)``.")
Pow = _binary("Pow", ops.pow, "x ** y: ``ops.Pow()(x, y)``.")
Maximum = _binary("Maximum", ops.maximum, "Element-wise max: ``ops.Maximum()(x, y)``.")
Minimum = _binary("Minimum", ops.minimum, "Element-wise min: ``ops.Minimum()(x, y)``.")
Equal = _binary("Equal", ops.equal, "x == y: ``ops.Equal()(x, y)``.")
NotEqual = _binary("NotEqual", ops.not_equal, "x != y: ``ops.NotEqual()(x, y)``.")
Greater = _binary("Greater", ops.greater, "x > y: ``ops.Greater()(x, y)``.")
GreaterEqual = _binary("GreaterEqual", ops.greater_equal, "x >= y.")
Less = _binary("Less", ops.less, "x < y: ``ops.Less()(x, y)``.")
LessEqual = _binary("LessEqual", ops.less_equal, "x <= y.")


def _add_n(self, x):
    items = [tensor(t) for t in x]
    total = items[0]
    for t in items[1:]:
        total = total + t
    return total


AddN = primitive("AddN", _no_attrs, _add_n, "The sum of a tuple of tensors: "
                 "``ops.AddN()((x, y, z))``.")


def _reduce_init(keep_dims=False):
    check(isinstance(keep_dims, bool), "Reduce", "keep_dims", "a bool", keep_dims)


def _reducer(name, fn, doc):
    def call(self, x, axis=()):
        x = tensor(x)
        if fn is ops.mean and x.dtype.kind != "f":
            x = ops.cast(x, np.float32)
        return fn(x, axis=axes(axis, x.ndim, name), keepdims=self.keep_dims)
    return primitive(name, _reduce_init, call, doc)


ReduceSum = _reducer("ReduceSum", ops.sum, "Sum over ``axis`` (() = all): "
                     "``ops.ReduceSum(keep_dims=False)(x, axis)``.")
ReduceMean = _reducer("ReduceMean", ops.mean, "Mean over ``axis``: "
                      "``ops.ReduceMean(keep_dims=False)(x, axis)``.")
ReduceMax = _reducer("ReduceMax", ops.max, "Maximum over ``axis``.")
ReduceMin = _reducer("ReduceMin", ops.min, "Minimum over ``axis``.")
ReduceProd = _reducer("ReduceProd", ops.prod, "Product over ``axis``.")


def _arg_init(axis=-1, output_type=None):
    check(isinstance(axis, int), "Argmax", "axis", "an int", axis)


def _arg_call(fn):
    def call(self, x):
        x = tensor(x)
        out = fn(x, axis=axes(self.axis, x.ndim, type(self).__name__))
        return ops.cast(out, to_numpy(self.output_type) if self.output_type is not None
                        else np.int32)
    return call


Argmax = primitive("Argmax", _arg_init, _arg_call(ops.argmax),
                   "Index of the maximum along ``axis`` (int32 by default): "
                   "``ops.Argmax(axis=-1, output_type=ms.int32)(x)``.")
Argmin = primitive("Argmin", _arg_init, _arg_call(ops.argmin),
                   "Index of the minimum along ``axis``: ``ops.Argmin(axis=-1)(x)``.")


def _arg_max_with_value_init(axis=0, keep_dims=False):
    check(isinstance(axis, int), "ArgMaxWithValue", "axis", "an int", axis)


def _arg_max_with_value(self, x):
    x = tensor(x)
    axis = int(self.axis) % max(x.ndim, 1)
    index = ops.argmax(x, axis=axis, keepdims=self.keep_dims)
    return index, ops.max(x, axis=axis, keepdims=self.keep_dims)      # int64, as 2.10


ArgMaxWithValue = primitive("ArgMaxWithValue", _arg_max_with_value_init, _arg_max_with_value,
                            "``(index, value)`` of the maximum along ``axis``: "
                            "``ops.ArgMaxWithValue(axis=0, keep_dims=False)(x)``. Note: "
                            "the index comes first.")


def _matmul_init(transpose_a=False, transpose_b=False):
    check(isinstance(transpose_a, bool) and isinstance(transpose_b, bool), "MatMul",
          "transpose flags", "bools", (transpose_a, transpose_b))


def _matmul(self, x, y):
    x, y = tensor(x), tensor(y)
    if self.transpose_a:
        x = ops.swap_last_axes(x)
    if self.transpose_b:
        y = ops.swap_last_axes(y)
    return ops.matmul(x, y)


MatMul = primitive("MatMul", _matmul_init, _matmul,
                   "x @ y of matrices, optionally transposed first: "
                   "``ops.MatMul(transpose_a=False, transpose_b=False)(x, y)``.")
BatchMatMul = primitive("BatchMatMul", _matmul_init, _matmul,
                        "Batched x @ y over the leading axes: "
                        "``ops.BatchMatMul(transpose_a=False, transpose_b=False)(x, y)``.")


def _fill(self, type, shape, value):  # noqa: A002
    return tensor(np.full(tuple(int(s) for s in shape), value, dtype=to_numpy(type)))


Fill = primitive("Fill", _no_attrs, _fill, "A tensor of ``shape`` filled with ``value``: "
                 "``ops.Fill()(ms.float32, (2, 2), 1.0)``.")
OnesLike = primitive("OnesLike", _no_attrs, lambda self, x: full_like(tensor(x), 1),
                     "Ones of ``x``'s shape and dtype: ``ops.OnesLike()(x)``.")
ZerosLike = primitive("ZerosLike", _no_attrs, lambda self, x: full_like(tensor(x), 0),
                      "Zeros of ``x``'s shape and dtype: ``ops.ZerosLike()(x)``.")


def _one_hot_init(axis=-1):
    check(isinstance(axis, int), "OneHot", "axis", "an int", axis)


def _one_hot(self, indices, depth, on_value, off_value):
    idx = ops.cast(tensor(indices), np.int64)
    on, off = tensor(on_value), tensor(off_value)
    hot = ops.one_hot(idx, int(depth), dtype=on.dtype)
    out = hot * on + (1 - hot) * off
    axis = int(self.axis)
    if axis not in (-1, idx.ndim):
        perm = list(range(idx.ndim))
        perm.insert(axis % (idx.ndim + 1), idx.ndim)
        out = ops.transpose(out, tuple(perm))
    return out


OneHot = primitive("OneHot", _one_hot_init, _one_hot,
                   "``on_value`` at each index, ``off_value`` elsewhere, along a new ``axis``: "
                   "``ops.OneHot(axis=-1)(indices, depth, on_value, off_value)``.")
