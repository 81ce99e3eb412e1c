"""``ops.arg_dtype_cast``: 2.10's casts between the Python kinds of an operator argument
(``mindspore/ops/_utils/arg_dtype_cast.py``): its generated operators declare each
argument's kind by an ``OpDtype`` number (``DT_INT``, ``DT_TUPLE_INT``, ``DT_TENSOR``...)
and ``type_it(op_name, arg_name, data, src_type, dst_type)`` converts a value given as
another accepted kind (a list for a tuple, an int for a float, a Tensor for a number...).
The conversions run on the facade's Tensors and dtypes through ``ops.tuple_to_array``,
``ops.scalar_to_tensor`` and ``ops.cast``."""
from __future__ import annotations

import enum

import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor
from .primitives import Primitive

__all__ = [
    "OpDtype", "TypeId", "IsDimUnKnown", "TupleToList", "ListToTuple", "DtypeToEnum",
    "StringToEnum", "is_sequence_shape_unknown", "tuple_to_list", "list_to_tuple",
    "int_to_float", "scalar_to_tuple", "tensor_to_tuple", "scalar_to_tensor",
    "tuple_to_tensor", "list_to_tensor", "dtype_to_string", "is_tuple", "is_list",
    "is_integral_mstype", "is_floating_point_mstype", "is_number", "is_instance_of",
    "is_instance_in", "get_support_dtype_list", "tensor_to_number", "normalize_int_tensor",
    "normalize_int_sequence", "do_type_cast", "type_it",
    "DT_INT_VAL", "DT_FLOAT_VAL", "DT_BOOL_VAL", "DT_NUMBER_VAL", "DT_TENSOR_VAL",
    "DT_TUPLE_BOOL_VAL", "DT_TUPLE_INT_VAL", "DT_TUPLE_FLOAT_VAL", "DT_TUPLE_NUMBER_VAL",
    "DT_TUPLE_TENSOR_VAL", "DT_TUPLE_STR_VAL", "DT_TUPLE_ANY_VAL", "DT_LIST_BOOL_VAL",
    "DT_LIST_INT_VAL", "DT_LIST_FLOAT_VAL", "DT_LIST_NUMBER_VAL", "DT_LIST_TENSOR_VAL",
    "DT_LIST_STR_VAL", "DT_LIST_ANY_VAL",
]


class OpDtype(enum.IntEnum):
    """The kind of an operator argument (MindSpore's ``ops::OpDtype``, gen_enum_def.h)."""
    DT_BEGIN = 0
    DT_BOOL = 1
    DT_INT = 2
    DT_FLOAT = 3
    DT_NUMBER = 4
    DT_TENSOR = 5
    DT_STR = 6
    DT_ANY = 7
    DT_TUPLE_BOOL = 8
    DT_TUPLE_INT = 9
    DT_TUPLE_FLOAT = 10
    DT_TUPLE_NUMBER = 11
    DT_TUPLE_TENSOR = 12
    DT_TUPLE_STR = 13
    DT_TUPLE_ANY = 14
    DT_LIST_BOOL = 15
    DT_LIST_INT = 16
    DT_LIST_FLOAT = 17
    DT_LIST_NUMBER = 18
    DT_LIST_TENSOR = 19
    DT_LIST_STR = 20
    DT_LIST_ANY = 21
    DT_END = 22


class TypeId(enum.IntEnum):
    """MindSpore's TypeId numbers of the tensor dtypes (gen_enum_def.h)."""
    kNumberTypeBool = 30
    kNumberTypeInt8 = 32
    kNumberTypeInt16 = 33
    kNumberTypeInt32 = 34
    kNumberTypeInt64 = 35
    kNumberTypeUInt8 = 37
    kNumberTypeUInt16 = 38
    kNumberTypeUInt32 = 39
    kNumberTypeUInt64 = 40
    kNumberTypeFloat16 = 42
    kNumberTypeFloat32 = 43
    kNumberTypeFloat64 = 44
    kNumberTypeBFloat16 = 45
    kNumberTypeComplex64 = 48
    kNumberTypeComplex128 = 49


_TYPE_IDS = {"Bool": 30, "Int8": 32, "Int16": 33, "Int32": 34, "Int64": 35, "UInt8": 37,
             "UInt16": 38, "UInt32": 39, "UInt64": 40, "Float16": 42, "Float32": 43,
             "Float64": 44, "BFloat16": 45, "Complex64": 48, "Complex128": 49}

# the string arguments' enums, by argument name (MindSpore's op_enum; the strings are
# matched case-insensitively)
_ENUMS = {
    "reduction": {"NONE": 0, "MEAN": 1, "SUM": 2, "ADD": 3},
    "data_format": {"NCHW": 0, "NHWC": 1},
    "format": {"NCHW": 0, "NHWC": 1},
    "pad_mode": {"PAD": 0, "SAME": 1, "VALID": 2},
    "interpolation_mode": {"BILINEAR": 0, "NEAREST": 1},
    "padding_mode": {"ZEROS": 0, "BORDER": 1, "REFLECTION": 2},
    "norm": {"BACKWARD": 0, "FORWARD": 1, "ORTHO": 2},
    "coordinate_transformation_mode": {"ALIGN_CORNERS": 0, "HALF_PIXEL": 1},
    "mode": {"BILINEAR": 0, "NEAREST": 1, "CONSTANT": 0, "REFLECT": 1, "EDGE": 2,
             "CIRCULAR": 3, "SYMMETRIC": 4},
}


class IsDimUnKnown(Primitive):
    """Whether a sequence's length is unknown at compile time: never here (shapes and
    lengths are static once traced)."""

    def __init__(self):
        super().__init__("IsDimUnKnown")

    def __call__(self, data):
        return False


class TupleToList(Primitive):
    """``TupleToList()((1, 2, 3)) == [1, 2, 3]``."""

    def __init__(self):
        super().__init__("TupleToList")

    def __call__(self, input):  # noqa: A002 - MindSpore's name
        return list(input)


class ListToTuple(Primitive):
    """``ListToTuple()([1, 2, 3]) == (1, 2, 3)``."""

    def __init__(self):
        super().__init__("ListToTuple")

    def __call__(self, input):  # noqa: A002
        return tuple(input)


class DtypeToEnum(Primitive):
    """``DtypeToEnum()(op_name, arg_name, ms.float32) == 43``: a dtype's TypeId number."""

    def __init__(self):
        super().__init__("DtypeToEnum")

    def __call__(self, op_name, arg_name, dtype):
        if not isinstance(dtype, mstype.Type) or str(dtype) not in _TYPE_IDS:
            raise TypeError(f"For '{op_name}', the input '{arg_name}' should be mindspore "
                            f"dtype, but got {dtype}.")
        return _TYPE_IDS[str(dtype)]


class StringToEnum(Primitive):
    """``StringToEnum()(op_name, 'reduction', 'mean') == 1``; None stays None."""

    def __init__(self):
        super().__init__("StringToEnum")

    def __call__(self, op_name, arg_name, enum_str):
        if enum_str is None:
            return None
        if not isinstance(enum_str, str):
            raise TypeError(f"For '{op_name}', the input '{arg_name}' should be a str, but "
                            f"got {type(enum_str)}.")
        table = _ENUMS.get(arg_name, {})
        value = table.get(enum_str.upper())
        if value is None:
            raise ValueError(f"Failed to convert the value \"{enum_str}\" of input "
                             f"'{arg_name}' of '{op_name}' to enum.")
        return value


is_sequence_shape_unknown = IsDimUnKnown()
tuple_to_list = TupleToList()
list_to_tuple = ListToTuple()


def int_to_float(data):
    return float(data)


def scalar_to_tuple(data):
    return (data,)


def tensor_to_tuple(data):
    """A Tensor's elements as a tuple of Python numbers (int32 read as int64, as 2.10)."""
    from . import functional as F
    if data.dtype == mstype.int32:
        data = F.cast(data, mstype.int64)
    return tuple(np.asarray(data.asnumpy()).reshape(-1).tolist())


def scalar_to_tensor(data):
    """bool -> a bool_ scalar Tensor, int -> int32, float -> float32."""
    from . import functional as F
    if isinstance(data, bool):
        return F.scalar_to_tensor(data, mstype.bool_)
    if isinstance(data, int):
        return F.scalar_to_tensor(data, mstype.int32)
    if isinstance(data, float):
        return F.scalar_to_tensor(data, mstype.float32)
    return F.scalar_to_tensor(data)


def tuple_to_tensor(data):
    from . import functional as F
    return F.tuple_to_array(data)


def list_to_tensor(data):
    from . import functional as F
    return F.tuple_to_array(list_to_tuple(data))


DT_INT_VAL = int(OpDtype.DT_INT)
DT_FLOAT_VAL = int(OpDtype.DT_FLOAT)
DT_BOOL_VAL = int(OpDtype.DT_BOOL)
DT_NUMBER_VAL = int(OpDtype.DT_NUMBER)
DT_TUPLE_BOOL_VAL = int(OpDtype.DT_TUPLE_BOOL)
DT_TUPLE_INT_VAL = int(OpDtype.DT_TUPLE_INT)
DT_TUPLE_FLOAT_VAL = int(OpDtype.DT_TUPLE_FLOAT)
DT_TUPLE_NUMBER_VAL = int(OpDtype.DT_TUPLE_NUMBER)
DT_TUPLE_TENSOR_VAL = int(OpDtype.DT_TUPLE_TENSOR)
DT_TUPLE_STR_VAL = int(OpDtype.DT_TUPLE_STR)
DT_TUPLE_ANY_VAL = int(OpDtype.DT_TUPLE_ANY)
DT_LIST_BOOL_VAL = int(OpDtype.DT_LIST_BOOL)
DT_LIST_INT_VAL = int(OpDtype.DT_LIST_INT)
DT_LIST_FLOAT_VAL = int(OpDtype.DT_LIST_FLOAT)
DT_LIST_NUMBER_VAL = int(OpDtype.DT_LIST_NUMBER)
DT_LIST_TENSOR_VAL = int(OpDtype.DT_LIST_TENSOR)
DT_LIST_STR_VAL = int(OpDtype.DT_LIST_STR)
DT_LIST_ANY_VAL = int(OpDtype.DT_LIST_ANY)
DT_TENSOR_VAL = int(OpDtype.DT_TENSOR)

dtype_to_string = {
    DT_INT_VAL: "int", DT_FLOAT_VAL: "float", DT_BOOL_VAL: "bool", DT_NUMBER_VAL: "number",
    DT_TENSOR_VAL: "Tensor", DT_TUPLE_BOOL_VAL: "tuple of bool",
    DT_TUPLE_INT_VAL: "tuple of int", DT_TUPLE_FLOAT_VAL: "tuple of float",
    DT_TUPLE_NUMBER_VAL: "tuple of number", DT_TUPLE_TENSOR_VAL: "tuple of tensor",
    DT_TUPLE_STR_VAL: "tuple of string", DT_TUPLE_ANY_VAL: "tuple of Any",
    DT_LIST_BOOL_VAL: "list of bool", DT_LIST_INT_VAL: "list of int",
    DT_LIST_FLOAT_VAL: "list of float", DT_LIST_NUMBER_VAL: "list of number",
    DT_LIST_TENSOR_VAL: "list of Tensor", DT_LIST_STR_VAL: "list of string",
    DT_LIST_ANY_VAL: "list of Any",
}


def is_tuple(type_id):
    return type_id in (DT_TUPLE_BOOL_VAL, DT_TUPLE_INT_VAL, DT_TUPLE_FLOAT_VAL,
                       DT_TUPLE_NUMBER_VAL, DT_TUPLE_TENSOR_VAL, DT_TUPLE_STR_VAL,
                       DT_TUPLE_ANY_VAL)


def is_list(type_id):
    return type_id in (DT_LIST_BOOL_VAL, DT_LIST_INT_VAL, DT_LIST_FLOAT_VAL,
                       DT_LIST_NUMBER_VAL, DT_LIST_TENSOR_VAL, DT_LIST_STR_VAL,
                       DT_LIST_ANY_VAL)


def is_integral_mstype(dtype):
    return dtype in (mstype.int8, mstype.int16, mstype.int32, mstype.int64, mstype.uint8,
                     mstype.uint16, mstype.uint32, mstype.uint64)


def is_floating_point_mstype(dtype):
    return dtype in (mstype.float16, mstype.float32, mstype.float64)


def is_number(type_id):
    return type_id in (DT_INT_VAL, DT_FLOAT_VAL, DT_BOOL_VAL, DT_NUMBER_VAL)


def is_instance_of(data, type_id):
    """``isinstance`` against an OpDtype number."""
    if type_id == DT_INT_VAL:
        return isinstance(data, int)
    if type_id == DT_FLOAT_VAL:
        return isinstance(data, float)
    if type_id == DT_BOOL_VAL:
        return isinstance(data, bool)
    if is_number(type_id):
        return isinstance(data, (int, float, bool))
    if is_tuple(type_id):
        return isinstance(data, tuple)
    if is_list(type_id):
        return isinstance(data, list)
    if type_id == DT_TENSOR_VAL:
        return isinstance(data, Tensor)
    return False


def is_instance_in(data, type_id):
    if not isinstance(type_id, tuple):
        return is_instance_of(data, type_id)
    return any(is_instance_of(data, t) for t in type_id)


def get_support_dtype_list(src_type, dst_type):
    """``"int, tuple of int"``: the kinds ``type_it`` accepts, for its message."""
    kinds = list(src_type) if isinstance(src_type, tuple) else [src_type]
    return ", ".join(dtype_to_string.get(t) for t in [*kinds, dst_type])


def tensor_to_number(data, dst_type, op_name=None):
    """A one-element Tensor as a Python number: int64 for DT_INT, float32 for DT_FLOAT;
    DT_NUMBER keeps ints ints and floats floats."""
    from . import functional as F
    if dst_type == DT_INT_VAL:
        data = F.cast(data, mstype.int64)
    elif dst_type == DT_FLOAT_VAL:
        data = F.cast(data, mstype.float32)
    elif dst_type == DT_NUMBER_VAL:
        if is_integral_mstype(data.dtype):
            data = F.cast(data, mstype.int64)
        elif data.dtype in (mstype.bfloat16, mstype.float16, mstype.float32, mstype.float64):
            data = F.cast(data, mstype.float32)
    return np.asarray(data.asnumpy()).reshape(()).item()


def normalize_int_tensor(op_name, arg_name, data):
    if not is_integral_mstype(data.dtype):
        raise ValueError(f"For '{op_name}', the input '{arg_name}' should be integral tensor, "
                         f"but got {data.dtype}.")
    return tensor_to_number(data, DT_INT_VAL)


def normalize_int_sequence(op_name, arg_name, data, to_tuple=True):
    """A sequence of ints and integral one-element Tensors as Python ints; anything else is
    passed through."""
    res = []
    for x in data:
        if isinstance(x, int):
            res.append(x)
        elif isinstance(x, Tensor):
            res.append(normalize_int_tensor(op_name, arg_name, x))
        else:
            return data
    return tuple(res) if to_tuple else res


def do_type_cast(data, dst_type, op_name=None):
    """``data`` converted to the kind ``dst_type``; TypeError when there is no conversion."""
    if is_instance_of(data, dst_type):
        return data
    if dst_type == DT_FLOAT_VAL:
        if isinstance(data, int):
            return int_to_float(data)
    elif is_tuple(dst_type):
        if isinstance(data, (int, float, bool)):
            return scalar_to_tuple(data)
        if isinstance(data, list):
            return list_to_tuple(data)
        if isinstance(data, Tensor):
            return tensor_to_tuple(data)
    elif is_list(dst_type):
        if isinstance(data, (int, float, bool)):
            return tuple_to_list(scalar_to_tuple(data))
        if isinstance(data, tuple):
            return tuple_to_list(data)
        if isinstance(data, Tensor):
            return tuple_to_list(tensor_to_tuple(data))
    elif dst_type == DT_TENSOR_VAL:
        if isinstance(data, (int, float, bool)):
            return scalar_to_tensor(data)
        if isinstance(data, tuple):
            return tuple_to_tensor(data)
        if isinstance(data, list):
            return list_to_tensor(data)
    elif is_number(dst_type):
        if isinstance(data, Tensor):
            return tensor_to_number(data, dst_type, op_name)
    raise TypeError(f"Type conversion failed: {op_name}")


def type_it(op_name, arg_name, data, src_type, dst_type):
    """Cast an operator argument from one of the kinds ``src_type`` (an OpDtype or a tuple of
    them) to ``dst_type``; None passes through."""
    if data is None:
        return data
    src_type = tuple(int(t) for t in src_type) if isinstance(src_type, tuple) \
        else int(src_type)
    dst_type = int(dst_type)
    if not is_instance_in(data, src_type) and not is_instance_of(data, dst_type):
        raise TypeError(f"For '{op_name}', the type of '{arg_name}' should be one of "
                        f"'[{get_support_dtype_list(src_type, dst_type)}]', but got "
                        f"{type(data)}.")
    return do_type_cast(data, dst_type, op_name)
