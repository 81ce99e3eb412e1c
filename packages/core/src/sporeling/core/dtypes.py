"""Sporeling's dtypes and their promotion rules.

A dtype *is* a ``numpy.dtype``; ``bfloat16`` comes from ``ml_dtypes``. Names follow
MindSpore (``float32``, ``int64``, ``bool_``) and NumPy.

Promotion (:func:`promote_types`), as PyTorch and JAX users expect rather than NumPy's:

* bool with anything gives the other type;
* integer with integer gives the smallest integer type that holds both (``uint8`` with
  ``int8`` gives ``int16``, ``uint16`` with ``int16`` gives ``int32``); no signed type
  holds ``uint64``, so ``uint64`` with a signed type gives ``int64`` (values above
  ``2**63 - 1`` wrap; PyTorch refuses the pair, NumPy goes to ``float64``);
* integer with float gives **the float** (``int64`` with ``float16`` gives ``float16``;
  NumPy would say ``float64``);
* float with float gives the smallest float that holds both: ``float16`` with ``bfloat16``
  gives ``float32`` (neither holds the other); the float8 types (``float8_e4m3fn``,
  ``float8_e5m2``) sit under ``float16``, so two different ones give ``float16`` and one
  with ``bfloat16`` gives ``float32``;
* complex with anything real gives the complex type that holds both (``complex64`` with
  ``float64`` gives ``complex128``).

Python scalars do not widen tensors (:func:`result_type`): ``float16`` tensor + ``2.5``
stays ``float16``; an integer tensor + ``2.5`` becomes the default float, ``float32``; a
bool tensor + ``3`` becomes ``int64``.

    >>> promote_types(int32, float16)
    dtype('float16')
    >>> promote_types(float16, bfloat16)
    dtype('float32')
    >>> result_type(float16, 2.5)
    dtype('float16')
"""
from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

from .errors import DTypeError

__all__ = [
    "bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "bfloat16", "float32", "float64", "float8_e4m3fn", "float8_e5m2",
    "complex64", "complex128", "ALL_DTYPES", "dtype", "is_floating", "is_integer",
    "is_signed", "is_complex", "promote_types", "result_type", "default_float",
    "default_int",
]

bool_ = np.dtype(np.bool_)
int8, int16, int32, int64 = (np.dtype(t) for t in ("int8", "int16", "int32", "int64"))
uint8, uint16, uint32, uint64 = (np.dtype(t) for t in ("uint8", "uint16", "uint32", "uint64"))
float16 = np.dtype(np.float16)
bfloat16 = np.dtype(ml_dtypes.bfloat16)
float32, float64 = np.dtype(np.float32), np.dtype(np.float64)
float8_e4m3fn = np.dtype(ml_dtypes.float8_e4m3fn)
float8_e5m2 = np.dtype(ml_dtypes.float8_e5m2)
complex64, complex128 = np.dtype(np.complex64), np.dtype(np.complex128)

ALL_DTYPES = (bool_, int8, int16, int32, int64, uint8, float16, bfloat16, float32, float64,
              uint16, uint32, uint64, float8_e4m3fn, float8_e5m2, complex64, complex128)
default_float = float32
default_int = int64

_BY_NAME = {"bool": bool_, "bool_": bool_, **{str(d): d for d in ALL_DTYPES},
            "half": float16, "float": float32, "double": float64, "long": int64,
            "int": int64}
_INTS = (int8, int16, int32, int64)
_UINTS = (uint8, uint16, uint32, uint64)
_FLOATS = (float8_e4m3fn, float8_e5m2, float16, bfloat16, float32, float64)
_COMPLEX = (complex64, complex128)
# Within a kind, the types that hold each type's every value (``uint64`` counts as held by
# ``int64``: see the module doc), each list in the order u8 i8 u16 i16 u32 i32 u64 i64 (and
# e4m3fn e5m2 f16 bf16 f32 f64), which extends "holds": the result of promoting two types
# is the first type both lists share.
_HELD_BY = {
    int8: (int8, int16, int32, int64),
    uint8: (uint8, uint16, int16, uint32, int32, uint64, int64),
    int16: (int16, int32, int64), uint16: (uint16, uint32, int32, uint64, int64),
    int32: (int32, int64), uint32: (uint32, uint64, int64), int64: (int64,),
    uint64: (uint64, int64),
    float8_e4m3fn: (float8_e4m3fn, float16, float32, float64),
    float8_e5m2: (float8_e5m2, float16, float32, float64),
    float16: (float16, float32, float64), bfloat16: (bfloat16, float32, float64),
    float32: (float32, float64), float64: (float64,),
    complex64: (complex64, complex128), complex128: (complex128,),
}
_SCALAR_KINDS = {bool: 0, int: 1, float: 2}


def dtype(value: Any) -> np.dtype:
    """Normalise a dtype given as a name, a NumPy type or dtype; unknown ones are an error.

    Objects carrying ``np_dtype`` (``sporeling.ms``'s ``ms.float32``) stand for that dtype."""
    given, value = value, getattr(value, "np_dtype", value)
    if isinstance(value, str):
        if value in _BY_NAME:
            return _BY_NAME[value]
    elif value is bool:
        return bool_
    elif value is int:
        return default_int
    elif value is float:
        return default_float
    elif isinstance(value, (type, np.dtype)):
        try:
            candidate = np.dtype(value)
        except TypeError:
            candidate = None
        if candidate in ALL_DTYPES:
            return candidate
    raise DTypeError("unsupported dtype",
                     expected=f"one of {', '.join(str(d) for d in ALL_DTYPES)}",
                     got=repr(given))


def is_floating(d) -> bool:
    """A real float type: float8_e4m3fn, float8_e5m2, float16, bfloat16, float32, float64."""
    try:  # every float op asks (float_operand): answered from a cache after the first time
        return _IS_FLOATING[d]
    except (KeyError, TypeError):
        answer = dtype(d) in _FLOATS
    if isinstance(d, np.dtype):
        _IS_FLOATING[d] = answer
    return answer


_IS_FLOATING: dict = {}


def is_integer(d) -> bool:
    """A signed or unsigned integer type (not bool)."""
    return dtype(d) in (*_INTS, *_UINTS)


def is_complex(d) -> bool:
    """complex64 or complex128."""
    return dtype(d) in _COMPLEX


def is_signed(d) -> bool:
    """Signed integers, floats and complex types."""
    d = dtype(d)
    return d in _INTS or d in _COMPLEX or is_floating(d)


def _kind(d: np.dtype) -> int:
    """0 bool, 1 integer, 2 float, 3 complex."""
    return 0 if d == bool_ else 2 if is_floating(d) else 3 if d in _COMPLEX else 1


def promote_types(a, b) -> np.dtype:
    """The dtype of a binary op's result on tensors of dtypes ``a`` and ``b``."""
    a, b = dtype(a), dtype(b)
    if a == b:
        return a
    ka, kb = _kind(a), _kind(b)
    if ka < kb:
        a, b, ka, kb = b, a, kb, ka
    if ka != kb:  # the higher kind wins; a complex type also holds the float's precision
        if ka == 3 and kb == 2:
            b = complex128 if b == float64 else complex64
        else:
            return a
    if a == bool_:
        return a
    held = _HELD_BY[b]
    return next(t for t in _HELD_BY[a] if t in held)


def result_type(*operands) -> np.dtype:
    """Promote tensor dtypes and Python scalars together; scalars do not widen tensors.

    ``operands`` are dtypes, objects with a ``.dtype`` (arrays, tensors) and Python ``bool``/``int``/
    ``float`` values. A scalar only matters when it is of a higher kind than every tensor;
    NumPy scalars (``np.float64(1.0)``) are typed and promote like tensors.
    """
    tensor_types, scalar_kind = [], -1
    for op in operands:
        if type(op) in _SCALAR_KINDS:  # NumPy scalars count as typed, like tensors
            scalar_kind = max(scalar_kind, _SCALAR_KINDS[type(op)])
        else:  # a dtype, or anything carrying one (arrays, tensors, NumPy scalars)
            tensor_types.append(dtype(getattr(op, "dtype", op)))
    if not tensor_types:
        return (bool_, default_int, default_float)[scalar_kind]
    result = tensor_types[0]
    for d in tensor_types[1:]:
        result = promote_types(result, d)
    if scalar_kind > _kind(result):
        return default_int if scalar_kind == 1 else default_float
    return result
