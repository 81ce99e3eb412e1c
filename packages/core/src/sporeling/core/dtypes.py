"""Sporeling's dtypes and their promotion rules.

A dtype *is* a ``numpy.dtype``; ``bfloat16`` comes from ``ml_dtypes``. Names follow
MindSpore (``float32``, ``int64``, ``bool_``) and NumPy.

Promotion (:func:`promote_types`), as PyTorch and JAX users expect rather than NumPy's:

* bool with anything gives the other type;
* integer with integer gives the wider; signed with unsigned gives a signed type that holds
  both (``uint8`` with ``int8`` gives ``int16``);
* integer with float gives **the float** (``int64`` with ``float16`` gives ``float16``;
  NumPy would say ``float64``);
* ``float16`` with ``bfloat16`` gives ``float32`` (neither holds the other);
* float with float gives the wider.

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
    "bool_", "int8", "int16", "int32", "int64", "uint8", "float16", "bfloat16", "float32",
    "float64", "ALL_DTYPES", "dtype", "is_floating", "is_integer", "is_signed",
    "promote_types", "result_type", "default_float", "default_int",
]

bool_ = np.dtype(np.bool_)
int8, int16, int32, int64 = (np.dtype(t) for t in ("int8", "int16", "int32", "int64"))
uint8 = np.dtype(np.uint8)
float16 = np.dtype(np.float16)
bfloat16 = np.dtype(ml_dtypes.bfloat16)
float32, float64 = np.dtype(np.float32), np.dtype(np.float64)

ALL_DTYPES = (bool_, int8, int16, int32, int64, uint8, float16, bfloat16, float32, float64)
default_float = float32
default_int = int64

_BY_NAME = {"bool": bool_, "bool_": bool_, **{str(d): d for d in ALL_DTYPES},
            "half": float16, "float": float32, "double": float64, "long": int64,
            "int": int64}
_INTS = (int8, int16, int32, int64)
_SCALAR_KINDS = {bool: 0, int: 1, float: 2}


def dtype(value: Any) -> np.dtype:
    """Normalise a dtype given as a name, a NumPy type or dtype; unknown ones are an error.

    Objects carrying ``np_dtype`` (``sporeling.ms``'s ``ms.float32``) stand for that dtype."""
    value = getattr(value, "np_dtype", value)
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
                     got=repr(value))


def is_floating(d) -> bool:
    """float16, bfloat16, float32 or float64."""
    try:  # every float op asks (float_operand): answered from a cache after the first time
        return _IS_FLOATING[d]
    except (KeyError, TypeError):
        answer = dtype(d) in (float16, bfloat16, float32, float64)
    if isinstance(d, np.dtype):
        _IS_FLOATING[d] = answer
    return answer


_IS_FLOATING: dict = {}


def is_integer(d) -> bool:
    """A signed or unsigned integer type (not bool)."""
    return dtype(d) in (*_INTS, uint8)


def is_signed(d) -> bool:
    """Signed integers and floats."""
    d = dtype(d)
    return d in _INTS or is_floating(d)


def _kind(d: np.dtype) -> int:
    """0 bool, 1 integer, 2 float."""
    return 0 if d == bool_ else 2 if is_floating(d) else 1


def promote_types(a, b) -> np.dtype:
    """The dtype of a binary op's result on tensors of dtypes ``a`` and ``b``."""
    a, b = dtype(a), dtype(b)
    if a == b:
        return a
    ka, kb = _kind(a), _kind(b)
    if ka != kb:
        return a if ka > kb else b
    if ka == 2:
        if {a, b} == {float16, bfloat16}:
            return float32
        return a if a.itemsize > b.itemsize else b
    if (a == uint8) != (b == uint8):  # one unsigned: smallest signed type holding uint8
        signed = b if a == uint8 else a
        return int16 if signed == int8 else signed
    return a if a.itemsize > b.itemsize else b


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
