"""Values in a MindIR file: tensors (``TensorProto``), attributes (``AttributeProto``:
scalars, strings, tuples, tensors, monads) and MindSpore's dtype ids, to and from NumPy
and Python."""
from __future__ import annotations

import math

import numpy as np

from ..common.dtype import bfloat16 as _bfloat16
from .errors import MindIRError
from .proto import AttributeProto, TensorProto

__all__ = ["to_tensor_proto", "from_tensor_proto", "to_attribute", "from_attribute",
           "TYPE_IDS", "dtype_of_type_id", "tensor_dtype", "shape_proto", "type_id_of",
           "abstract_of", "MONAD"]

# TensorProto.data_type <-> NumPy (FLOAT64 = 17 is read as DOUBLE = 11)
_DATA_TYPES = {1: np.float32, 2: np.uint8, 3: np.int8, 4: np.uint16, 5: np.int16, 6: np.int32,
               7: np.int64, 9: np.bool_, 10: np.float16, 11: np.float64, 12: np.uint32,
               13: np.uint64, 14: np.complex64, 15: np.complex128,
               16: _bfloat16.np_dtype, 17: np.float64}
_DATA_TYPE_OF = {np.dtype(t): code for code, t in _DATA_TYPES.items() if code != 17}

# MindSpore's TypeId (the dtype operand of Cast): kNumberTypeBool = 30, ...
TYPE_IDS = {30: np.bool_, 32: np.int8, 33: np.int16, 34: np.int32, 35: np.int64, 37: np.uint8,
            38: np.uint16, 39: np.uint32, 40: np.uint64, 42: np.float16, 43: np.float32,
            44: np.float64, 45: _bfloat16.np_dtype}
_TYPE_ID_OF = {np.dtype(t): code for code, t in TYPE_IDS.items()}

_A = AttributeProto
MONAD = object()  # the value of a UMONAD/IOMONAD constant: ordering tokens, no data


def _unsupported_dtype(dtype, where):
    raise MindIRError("a dtype MindIR cannot hold", op="export", where=where,
                      got=str(dtype), expected=", ".join(sorted(map(str, _DATA_TYPE_OF))))


def to_tensor_proto(array, name: str = "", where: str | None = None) -> "TensorProto":
    """A ``TensorProto`` holding ``array`` in ``raw_data`` (little-endian, row-major)."""
    array = np.asarray(array)
    code = _DATA_TYPE_OF.get(array.dtype.newbyteorder("=") if array.dtype.byteorder != "|"
                             else array.dtype)
    if code is None:
        _unsupported_dtype(array.dtype, where)
    t = TensorProto(dims=[int(d) for d in array.shape], data_type=code)
    if name:
        t.name = name
    array = np.ascontiguousarray(array, array.dtype.newbyteorder("="))
    t.raw_data = (array if np.little_endian else array.byteswap()).tobytes()
    return t


def shape_proto(shape, dtype) -> "TensorProto":
    """A ``TensorProto`` with dims and type only (an abstract value)."""
    code = _DATA_TYPE_OF.get(np.dtype(dtype))
    if code is None:
        _unsupported_dtype(dtype, None)
    return TensorProto(dims=[int(d) for d in shape], data_type=code)


def tensor_dtype(t, where: str) -> np.dtype:
    """The NumPy dtype of a ``TensorProto``'s ``data_type``."""
    dtype = _DATA_TYPES.get(t.data_type)
    if dtype is None:
        raise MindIRError(f"tensor {t.name!r} has an unknown data_type", op="load",
                          where=where, got=t.data_type,
                          expected="one of " + ", ".join(map(str, sorted(_DATA_TYPES))))
    return np.dtype(dtype)


def from_tensor_proto(t, where: str, external=None) -> np.ndarray:
    """The array a ``TensorProto`` holds (``raw_data``, the typed repeated fields, or
    ``external_data`` read by ``external(location, offset, length)``); its size is checked
    against its dims."""
    dtype = tensor_dtype(t, where)
    dims = [int(d) for d in t.dims]
    if any(d < 0 for d in dims):
        raise MindIRError(f"tensor {t.name!r} has dynamic or negative dims", op="load",
                          where=where, got=dims)
    count = math.prod(dims)
    if t.HasField("external_data"):
        if external is None:
            raise MindIRError(f"tensor {t.name!r} is stored outside the file", op="load",
                              where=where, hint="load the file from a path")
        e = t.external_data
        data = external(e.location, int(e.offset), int(e.length), t.name)
    elif t.HasField("raw_data"):
        data = t.raw_data
    else:
        for field, cast in (("float_data", np.float32), ("double_data", np.float64),
                            ("int32_data", np.int32), ("int64_data", np.int64),
                            ("uint64_data", np.uint64)):
            values = getattr(t, field)
            if len(values):
                if len(values) != count:
                    break
                return np.asarray(values, cast).astype(dtype).reshape(dims)
        else:
            if count == 0:
                return np.zeros(dims, dtype)
        raise MindIRError(f"tensor {t.name!r} holds no data of its size", op="load",
                          where=where, expected=f"{count} values of {dtype}")
    if len(data) != count * dtype.itemsize:
        raise MindIRError(f"tensor {t.name!r}: dims {tuple(dims)} of {dtype} need "
                          f"{count * dtype.itemsize} bytes but it holds {len(data)}",
                          op="load", where=where, hint="the file is damaged")
    array = np.frombuffer(data, dtype).reshape(dims)
    return array.byteswap() if not np.little_endian and dtype.itemsize > 1 else array


def type_id_of(dtype) -> int:
    code = _TYPE_ID_OF.get(np.dtype(dtype))
    if code is None:
        _unsupported_dtype(dtype, None)
    return code


def dtype_of_type_id(code: int, where: str):
    if code not in TYPE_IDS:
        raise MindIRError("an unknown MindSpore dtype id", op="load", where=where, got=code,
                          expected=", ".join(map(str, TYPE_IDS)))
    return np.dtype(TYPE_IDS[code])


def to_attribute(value, name: str = "", *, inner: bool = False) -> "AttributeProto":
    """``value`` as MindSpore writes it: bool -> BOOL ``i``, int -> INT64, float -> FLOAT
    ``f``, str -> STRING ``s``, tuple/list -> TUPLE/LIST of values (whose ints and floats
    go in ``ints``/``floats``), an array -> TENSORS, None -> NONE, :data:`MONAD` -> UMONAD."""
    a = _A(name=name) if name else _A()
    if value is MONAD:
        a.type = _A.UMONAD
    elif value is None:
        a.type = _A.NONE
    elif isinstance(value, (bool, np.bool_)):
        a.type = _A.BOOL
        if inner:
            a.ints.append(int(value))
        else:
            a.i = int(value)
    elif isinstance(value, (int, np.integer)):
        a.type = _A.INT64
        if inner:
            a.ints.append(int(value))
        else:
            a.i = int(value)
    elif isinstance(value, (float, np.floating)):
        a.type = _A.FLOAT
        if inner:
            a.floats.append(float(value))
        else:
            a.f = float(value)
    elif isinstance(value, str):
        a.type = _A.STRING
        if inner:
            a.strings.append(value.encode())
        else:
            a.s = value.encode()
    elif isinstance(value, (tuple, list)):
        a.type = _A.TUPLE if isinstance(value, tuple) else _A.LIST
        a.values.extend(to_attribute(v, inner=True) for v in value)
    elif isinstance(value, np.ndarray):
        a.type = _A.TENSORS
        a.tensors.append(to_tensor_proto(value, "value0"))
    else:
        raise MindIRError("a value MindIR cannot hold", op="export", got=type(value).__name__)
    return a


def _one(a, field: str, scalar: str):
    values = getattr(a, field)
    return values[0] if len(values) else getattr(a, scalar)


def from_attribute(a, where: str, external=None):
    """The Python value of an ``AttributeProto`` (the inverse of :func:`to_attribute`;
    a one-tensor TENSORS or a TENSOR is an array)."""
    kind = a.type
    if kind in (_A.UMONAD, _A.IOMONAD):
        return MONAD
    if kind == _A.NONE:
        return None
    if kind == _A.BOOL:
        return bool(_one(a, "ints", "i"))
    if kind in (_A.INT8, _A.INT16, _A.INT32, _A.INT64, _A.UINT8, _A.UINT16, _A.UINT32,
                _A.UINT64):
        return int(_one(a, "ints", "i"))
    if kind == _A.FLOAT:
        return float(np.float32(_one(a, "floats", "f")))
    if kind == _A.DOUBLE:
        return float(_one(a, "doubles", "d"))
    if kind == _A.STRING:
        return bytes(_one(a, "strings", "s")).decode("utf-8", "replace")
    if kind in (_A.TUPLE, _A.LIST):
        items = [from_attribute(v, where, external) for v in a.values]
        return tuple(items) if kind == _A.TUPLE else items
    if kind == _A.TENSOR:
        return from_tensor_proto(a.t, where, external)
    if kind == _A.TENSORS and len(a.tensors) == 1:
        return from_tensor_proto(a.tensors[0], where, external)
    name = _A.AttributeType.Name(kind) if kind in _A.AttributeType.values() else kind
    raise MindIRError(f"attribute {a.name!r} of a kind Sporeling cannot read", op="load",
                      where=where, got=name)


def abstract_of(avals, name: str = "shape") -> "AttributeProto":
    """The ``shape`` attribute MindSpore writes on a node: TENSORS for one value, a TUPLE
    of them for several."""
    if len(avals) == 1:
        a = _A(name=name, type=_A.TENSORS)
        a.tensors.append(shape_proto(avals[0].shape, avals[0].dtype))
        return a
    a = _A(name=name, type=_A.TUPLE)
    for aval in avals:
        a.values.append(abstract_of([aval], ""))
    a.seq_info.is_dyn_len = False
    return a
