"""MindSpore's dtype objects (``ms.float32`` prints ``Float32``) and their NumPy dtypes.

A facade dtype is a small object carrying ``np_dtype``. It compares equal to the same
NumPy dtype (``tensor.dtype == ms.float32`` holds, since sx Tensors report NumPy dtypes), hashes
like it, and NumPy accepts it wherever a dtype goes (``np.zeros(2, dtype=ms.float32)``) through
its ``dtype`` attribute. ``to_numpy`` is the one conversion point A and B's ops call.
"""
from __future__ import annotations

import enum
from typing import Any

import numpy as np

from sporeling.core.dtypes import dtype as _core_dtype
from sporeling.core.errors import DTypeError

__all__ = [
    "Type", "to_numpy", "from_numpy", "dtype_to_nptype", "dtype_to_pytype", "pytype_to_dtype",
    "bool_", "int8", "int16", "int32", "int64", "uint8", "float16", "bfloat16", "float32",
    "float64", "half", "single", "double", "float_", "int_", "byte", "ubyte", "short", "intc",
    "intp", "long", "number_type", "int_type",
    "uint_type", "float_type", "all_types", "QuantDtype",
]


class Type:
    """A MindSpore dtype: prints as MindSpore does (``Float32``); ``np_dtype`` is NumPy's."""

    __slots__ = ("name", "np_dtype")

    def __init__(self, name: str, np_dtype):
        self.name = name
        self.np_dtype = np.dtype(np_dtype)

    @property
    def dtype(self) -> np.dtype:  # NumPy converts any object with ``.dtype``
        return self.np_dtype

    def __repr__(self) -> str:
        return self.name

    __str__ = __repr__

    def __eq__(self, other) -> bool:
        if isinstance(other, Type):
            return self.np_dtype == other.np_dtype
        if isinstance(other, (np.dtype, type)):
            try:
                return self.np_dtype == np.dtype(other)
            except TypeError:
                return False
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.np_dtype)

    def __reduce__(self):
        return (Type, (self.name, self.np_dtype))


bool_ = Type("Bool", np.bool_)
int8, int16, int32, int64 = (Type(f"Int{b}", f"int{b}") for b in (8, 16, 32, 64))
uint8 = Type("UInt8", np.uint8)
float16, float32, float64 = (Type(f"Float{b}", f"float{b}") for b in (16, 32, 64))
bfloat16 = Type("BFloat16", _core_dtype("bfloat16"))
# MindSpore's aliases
half, single, double, float_ = float16, float32, float64, float32
int_ = int32  # mindspore.int_ is Int32
byte, ubyte, short, intc, intp, long = int8, uint8, int16, int32, int64, int64

int_type = (int8, int16, int32, int64)
uint_type = (uint8,)
float_type = (float16, float32, float64, bfloat16)
number_type = (*int_type, *uint_type, *float_type)
all_types = (bool_, *number_type)

_BY_NUMPY = {t.np_dtype: t for t in reversed(all_types)}


def to_numpy(dtype: Any) -> np.dtype | None:
    """The NumPy dtype for a facade dtype object, a NumPy dtype or a name; None stays None.

    Raises ``DTypeError`` (what came, what is supported) for anything else."""
    if dtype is None:
        return None
    return _core_dtype(getattr(dtype, "np_dtype", dtype))


def from_numpy(dtype: Any) -> Type:
    """The facade dtype object for a NumPy dtype, a name or a facade dtype."""
    return _BY_NUMPY[to_numpy(dtype)]


def dtype_to_nptype(type_: Any) -> type:
    """MindSpore's ``dtype_to_nptype``: ``ms.float32`` -> ``numpy.float32``."""
    return to_numpy(type_).type


_PYTYPES = {bool_: bool, **{t: int for t in (*int_type, *uint_type)},
            **{t: float for t in float_type}}


def dtype_to_pytype(type_: Any) -> type:
    """MindSpore's ``dtype_to_pytype``: ``ms.float32`` -> ``float``, ``ms.int8`` -> ``int``."""
    return _PYTYPES[from_numpy(type_)]


def pytype_to_dtype(obj: Any) -> Type:
    """MindSpore's ``pytype_to_dtype``: ``bool`` -> ``Bool``, ``int`` -> ``Int64``, a NumPy type."""
    if obj is bool:
        return bool_
    if obj is int:
        return int64
    if obj is float:
        return float32
    if isinstance(obj, Type):
        return obj
    try:
        return from_numpy(obj)
    except (DTypeError, TypeError) as exc:
        raise DTypeError("pytype_to_dtype: unsupported type", expected="bool, int, float, "
                         "a NumPy type or a facade dtype", got=repr(obj)) from exc


@enum.unique
class QuantDtype(enum.Enum):
    """MindSpore's quantization data types, ``INT1`` ... ``INT16`` and ``UINT1`` ...
    ``UINT16``; ``value()`` is the int 2.10 serializes them as (``INT8.value() == 7``,
    ``UINT16.value() == 115``). They describe a quantization scheme; no Tensor holds them."""
    locals().update({f"INT{bits}": bits - 1 for bits in range(1, 17)})
    locals().update({f"UINT{bits}": 99 + bits for bits in range(1, 17)})

    def __str__(self) -> str:
        return self.name

    def value(self) -> int:  # 2.10 makes ``value`` a method, not Enum's property
        return self._value_
