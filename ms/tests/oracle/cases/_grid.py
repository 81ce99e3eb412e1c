"""Helpers that expand one table row into its variants (dtypes x shapes x arguments)."""
from __future__ import annotations

import itertools

from ..case import Case
from ..inputs import Input

FLOATS = ("float32", "float16", "float64")
SHAPES = ((3, 4), (2, 3, 4))


def short(dtype: str) -> str:
    return {"float32": "f32", "float16": "f16", "float64": "f64", "int32": "i32",
            "int64": "i64", "bool": "bool", "int8": "i8", "uint8": "u8"}[dtype]


def tag(kwargs: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in kwargs.items()) if kwargs else ""


def variants(prefix: str, api: str, make_inputs, dtypes=FLOATS, shapes=SHAPES,
             kwargs_list=({},), grad=True, **extra):
    """One case per (dtype, shape, kwargs): ``make_inputs(dtype, shape)`` gives the inputs;
    names are ``prefix[kwargs]/dtype/shape`` (no ``/shape`` for the shape ``()``: rows whose
    inputs fix their own shapes)."""
    out = []
    for dtype, shape, kwargs in itertools.product(dtypes, shapes, kwargs_list):
        label = tag(kwargs)
        name = f"{prefix}{'[' + label + ']' if label else ''}/{short(dtype)}"
        name += f"/{'x'.join(map(str, shape))}" if shape else ""
        out.append(Case(name, api, tuple(make_inputs(dtype, shape)), dict(kwargs),
                        grad=grad and dtype.startswith("float"), **extra))
    return out


def unary(kind="normal"):
    return lambda dtype, shape: [Input(shape, dtype, kind)]


def binary(kind_a="normal", kind_b="normal", broadcast=False):
    def make(dtype, shape):
        other = shape[-1:] if broadcast else shape
        return [Input(shape, dtype, kind_a), Input(other, dtype, kind_b)]
    return make
