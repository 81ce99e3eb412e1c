"""``ops.arg_handler``: 2.10's converters of operator arguments (``mindspore/ops/_utils/
arg_handler.py``), which its generated operators run on ``kernel_size``, ``stride``,
``dtype``, ``reduction``... before calling the kernel. The same conversions here, on the
facade's values: ``to_pair``/``to_kernel_size``/... normalise ints and NCHW 4-tuples to
the spatial pair, ``dtype_to_type_id`` gives MindSpore's TypeId number of a facade dtype,
``str_to_enum`` the enum value of a string argument (``'mean'`` -> ``Reduction.MEAN``)."""
from __future__ import annotations

import enum

__all__ = [
    "Format", "Reduction", "arg_invalid_info", "to_pair", "to_kernel_size", "to_strides",
    "to_rates", "to_dilations", "to_output_padding", "to_2d_paddings", "to_paddings",
    "to_3d_kernel_size", "to_3d_strides", "to_3d_dilations", "to_3d_paddings", "to_axis",
    "generator_handler", "dtype_to_type_id", "str_to_enum",
]


class Format(enum.IntEnum):
    """A data format argument's enum (``FormatEnum``)."""
    NCHW = 0
    NHWC = 1


class Reduction(enum.IntEnum):
    """A loss's ``reduction`` argument's enum (``ReductionEnum``)."""
    NONE = 0
    MEAN = 1
    SUM = 2
    ADD = 3


def arg_invalid_info(op_name, arg_name, arg_val):
    """The message of an argument a converter refuses."""
    return f"For '{op_name}', the value of '{arg_name}' is invalid: '{arg_val}'."


def _spatial(n: int, rank: int):
    """int -> n copies; a sequence of ``rank`` (the NC... layout) -> its last n; any other
    sequence unchanged."""
    def convert(op_name, arg_name, value):
        if isinstance(value, int):
            return (value,) * n
        if isinstance(value, (tuple, list)):
            return tuple(value[rank - n:]) if len(value) == rank else value
        raise ValueError(arg_invalid_info(op_name, arg_name, value))
    return convert


def _repeat(n: int):
    def convert(op_name, arg_name, value):
        if isinstance(value, int):
            return (value,) * n
        if isinstance(value, (tuple, list)):
            return value
        raise ValueError(arg_invalid_info(op_name, arg_name, value))
    return convert


def to_pair(op_name, arg_name, arg_val):
    """int/float -> ``(v, v)``; a tuple or list unchanged."""
    if isinstance(arg_val, (int, float)):
        return (arg_val, arg_val)
    if isinstance(arg_val, (list, tuple)):
        return arg_val
    raise ValueError(arg_invalid_info(op_name, arg_name, arg_val))


to_kernel_size = _spatial(2, 4)
to_strides = _spatial(2, 4)
to_rates = _spatial(2, 4)
to_dilations = _spatial(2, 4)
to_output_padding = _spatial(2, 4)
to_3d_kernel_size = _spatial(3, 5)
to_3d_strides = _spatial(3, 5)
to_3d_dilations = _spatial(3, 5)
to_2d_paddings = _repeat(2)
to_paddings = _repeat(4)
to_3d_paddings = _repeat(6)
for _name, _fn in [("to_kernel_size", to_kernel_size), ("to_strides", to_strides),
                   ("to_rates", to_rates), ("to_dilations", to_dilations),
                   ("to_output_padding", to_output_padding),
                   ("to_3d_kernel_size", to_3d_kernel_size), ("to_3d_strides", to_3d_strides),
                   ("to_3d_dilations", to_3d_dilations), ("to_2d_paddings", to_2d_paddings),
                   ("to_paddings", to_paddings), ("to_3d_paddings", to_3d_paddings)]:
    _fn.__name__ = _fn.__qualname__ = _name
    _fn.__doc__ = f"2.10's ``{_name}(op_name, arg_name, value)``."


def to_axis(op_name, arg_name, axis):
    """None stays None; int -> ``(axis,)``; a list -> a tuple."""
    if axis is None:
        return None
    if isinstance(axis, int):
        return (axis,)
    if isinstance(axis, (tuple, list)):
        return tuple(axis)
    raise ValueError(arg_invalid_info(op_name, arg_name, axis))


def generator_handler(op_name, arg_name, inputs):
    """The ints of ``inputs`` as int64 scalar Tensors (a random op's seed and offset)."""
    from ..common.tensor import Tensor
    from ..common import dtype as mstype
    return tuple(Tensor(x, mstype.int64) if isinstance(x, int) and not isinstance(x, bool)
                 else x for x in inputs)


def dtype_to_type_id(op_name, arg_name, dtype):
    """MindSpore's TypeId number of a facade dtype (``ms.float32`` -> 43)."""
    from .arg_dtype_cast import DtypeToEnum
    return DtypeToEnum()(op_name, arg_name, dtype)


def str_to_enum(op_name, arg_name, enum_str):
    """The enum value of a string argument (``'mean'`` -> 1); None stays None."""
    from .arg_dtype_cast import StringToEnum
    return StringToEnum()(op_name, arg_name, enum_str)
