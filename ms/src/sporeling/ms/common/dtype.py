"""MindSpore's dtype objects (``ms.float32`` prints ``Float32``) and their NumPy dtypes.

A facade dtype is a small object carrying ``np_dtype``. It compares equal to the same
NumPy dtype (``tensor.dtype == ms.float32`` holds, since sx Tensors report NumPy dtypes), hashes
like it, and NumPy accepts it wherever a dtype goes (``np.zeros(2, dtype=ms.float32)``) through
its ``dtype`` attribute. ``to_numpy`` is the one conversion point A and B's ops call.
"""
from __future__ import annotations

import enum
import inspect
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
    "uint16", "uint32", "uint64", "ushort", "uintc", "uintp", "uint", "complex64",
    "complex128", "cfloat", "cdouble", "float8_e4m3fn", "float8_e5m2", "complex_type",
    "Int", "TensorType", "tensor_type", "number", "string", "list_", "tuple_", "type_none",
    "function", "type_type", "get_py_obj_dtype",
]


class Type:
    """A MindSpore dtype: prints as MindSpore does (``Float32``); ``np_dtype`` is NumPy's.

    The abstract types (``ms.number``, ``ms.string``, ``ms.list_``, the generic ``ms.uint``...)
    have no NumPy dtype (``np_dtype`` is None): they describe Python values, compare by
    name, and no Tensor holds them."""

    __slots__ = ("name", "np_dtype")

    def __init__(self, name: str, np_dtype=None):
        self.name = name
        self.np_dtype = None if np_dtype is None else np.dtype(np_dtype)

    @property
    def dtype(self) -> np.dtype:  # NumPy converts any object with ``.dtype``
        return self.np_dtype

    def __repr__(self) -> str:
        return self.name

    __str__ = __repr__

    def __eq__(self, other) -> bool:
        if isinstance(other, Type):
            if self.np_dtype is None or other.np_dtype is None:
                return type(self) is type(other) and self.name == other.name
            return self.np_dtype == other.np_dtype
        if self.np_dtype is None:
            return False
        if isinstance(other, (np.dtype, type)):
            try:
                return self.np_dtype == np.dtype(other)
            except TypeError:
                return False
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.name if self.np_dtype is None else self.np_dtype)

    def __reduce__(self):
        return (Type, (self.name, self.np_dtype))


class Int(Type):
    """MindSpore's integer type class: ``Int(8)`` is ``ms.int8``, ``Int()`` the generic
    ``Int``; ``isinstance(ms.int32, Int)`` holds."""

    __slots__ = ()

    def __init__(self, nbits: int | None = None):
        if nbits is None:
            super().__init__("Int")
        elif nbits in (8, 16, 32, 64):
            super().__init__(f"Int{nbits}", f"int{nbits}")
        else:
            raise DTypeError("Int: unsupported width", expected="8, 16, 32 or 64",
                             got=repr(nbits))

    def __reduce__(self):
        return (Int, (None if self.np_dtype is None else self.np_dtype.itemsize * 8,))


class TensorType(Type):
    """The type of a Tensor of ``element_type`` (``Tensor[Float32]``); ``ms.tensor_type``
    and what :func:`get_py_obj_dtype` gives for a Tensor."""

    __slots__ = ("_element",)

    def __init__(self, element_type=None):
        self._element = None if element_type is None else from_numpy(element_type)
        super().__init__("Tensor" if element_type is None else f"Tensor[{self._element}]")

    def element_type(self):
        """The dtype of the elements (None for the generic ``Tensor``)."""
        return self._element

    def __reduce__(self):
        return (TensorType, (self._element,))


tensor_type = TensorType

bool_ = Type("Bool", np.bool_)
int8, int16, int32, int64 = (Int(b) for b in (8, 16, 32, 64))
uint8, uint16, uint32, uint64 = (Type(f"UInt{b}", f"uint{b}") for b in (8, 16, 32, 64))
float16, float32, float64 = (Type(f"Float{b}", f"float{b}") for b in (16, 32, 64))
bfloat16 = Type("BFloat16", _core_dtype("bfloat16"))
float8_e4m3fn = Type("Float8_e4m3fn", _core_dtype("float8_e4m3fn"))
float8_e5m2 = Type("Float8_e5m2", _core_dtype("float8_e5m2"))
complex64, complex128 = Type("Complex64", np.complex64), Type("Complex128", np.complex128)
# MindSpore's aliases
half, single, double, float_ = float16, float32, float64, float32
int_ = int32  # mindspore.int_ is Int32
byte, ubyte, short, intc, intp, long = int8, uint8, int16, int32, int64, int64
ushort, uintc, uintp = uint16, uint32, uint64
cfloat, cdouble = complex64, complex128
# the abstract types: Python values' types, held by no Tensor
uint = Type("UInt")
number, string = Type("Number"), Type("String")
list_, tuple_, type_none = Type("List"), Type("Tuple"), Type("TypeNone")
function, type_type = Type("Func"), Type("TypeType")

int_type = (int8, int16, int32, int64)
uint_type = (uint8, uint16, uint32, uint64)
float_type = (float16, float32, float64, bfloat16, float8_e4m3fn, float8_e5m2)
complex_type = (complex64, complex128)
number_type = (*int_type, *uint_type, *float_type, *complex_type)
all_types = (bool_, *number_type)

_BY_NUMPY = {t.np_dtype: t for t in reversed(all_types)}


def to_numpy(dtype: Any) -> np.dtype | None:
    """The NumPy dtype for a facade dtype object, a NumPy dtype or a name; None stays None.

    Raises ``DTypeError`` (what came, what is supported) for anything else."""
    if dtype is None:
        return None
    if isinstance(dtype, Type) and dtype.np_dtype is None:
        raise DTypeError("no Tensor holds an abstract type", expected="a number dtype such "
                         "as ms.float32", got=repr(dtype))
    return _core_dtype(getattr(dtype, "np_dtype", dtype))


def from_numpy(dtype: Any) -> Type:
    """The facade dtype object for a NumPy dtype, a name or a facade dtype."""
    return _BY_NUMPY[to_numpy(dtype)]


def dtype_to_nptype(type_: Any) -> type:
    """MindSpore's ``dtype_to_nptype``: ``ms.float32`` -> ``numpy.float32``."""
    return to_numpy(type_).type


_PYTYPES = {bool_: bool, **{t: int for t in (*int_type, *uint_type)},
            **{t: float for t in float_type}, **{t: complex for t in complex_type},
            list_: list, tuple_: tuple, string: str, type_none: type(None)}


def dtype_to_pytype(type_: Any) -> type:
    """MindSpore's ``dtype_to_pytype``: ``ms.float32`` -> ``float``, ``ms.int8`` -> ``int``,
    ``ms.complex64`` -> ``complex``, ``ms.list_`` -> ``list``."""
    if isinstance(type_, Type) and type_.np_dtype is None:
        return _PYTYPES[type_]
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
    if obj in _PYTHON_TYPES:
        return _PYTHON_TYPES[obj]
    try:
        return from_numpy(obj)
    except (DTypeError, TypeError) as exc:
        raise DTypeError("pytype_to_dtype: unsupported type", expected="bool, int, float, "
                         "a NumPy type or a facade dtype", got=repr(obj)) from exc


_PYTHON_TYPES = {list: list_, tuple: tuple_, type(None): type_none, str: string,
                 np.str_: string, complex: complex128}


def get_py_obj_dtype(obj: Any) -> Type:
    """MindSpore's ``get_py_obj_dtype``: the MindSpore type of a Python type or value -- a
    Tensor's ``Tensor[Float32]``, ``Func`` for a Cell, Primitive or function, ``TypeType``
    for a dtype, else :func:`pytype_to_dtype` of the type (``[1]`` -> ``List``)."""
    if hasattr(obj, "shape") and hasattr(obj, "dtype") and not isinstance(obj, type):
        try:
            return TensorType(obj.dtype)
        except (DTypeError, KeyError, TypeError):
            pass
    if hasattr(obj, "construct") or hasattr(obj, "__primitive_flag__") \
            or inspect.isfunction(obj):
        return function
    if isinstance(obj, Type):
        return type_type
    return pytype_to_dtype(obj if isinstance(obj, type) else type(obj))


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
