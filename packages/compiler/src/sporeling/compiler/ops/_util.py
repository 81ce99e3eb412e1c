"""Helpers the op definitions share: operand conversion, promotion, shape rules."""
from __future__ import annotations

import sys

import numpy as np

from sporeling.core import ArgumentError, DTypeError, ShapeError, dtypes
from sporeling.core.arguments import check_float, check_int

from ..core import Aval

__all__ = ["is_array", "as_operand", "promote", "float_operand", "broadcast_shapes",
           "same_dtype", "check_axes", "check_shape", "check_sequence", "check_callable",
           "check_int", "check_float", "unbroadcast", "elementwise_aval"]

_SCALARS = (bool, int, float)
_SCALAR_KIND = {bool: 0, int: 1, float: 2}
_KIND_RANK = {"b": 0, "i": 1, "u": 1, "f": 2, "V": 2}  # "V": ml_dtypes' bfloat16
_NUMPY_SCALARS = frozenset(np.sctypeDict.values()) - {np.ndarray}


def is_array(x) -> bool:
    """An operand some interpreter owns (array, Tensor, tracer) rather than a Python value."""
    return hasattr(x, "shape") and hasattr(x, "dtype")


def as_operand(x, dtype=None):
    """Arrays pass through; Python scalars and (nested) lists become NumPy arrays."""
    if is_array(x):
        return np.asarray(x) if isinstance(x, np.generic) else x
    try:
        array = np.asarray(x, dtype=dtype)
    except (TypeError, ValueError, OverflowError):  # ragged lists, "abc" as a float, 2**70
        array = None
    if array is None or array.dtype.kind in _NOT_NUMBERS:  # None, "abc", object(): kernels
        raise not_an_operand(x, _calling_op()) from None  # cannot take them
    if dtype is None and array.dtype.kind == "f":  # Python floats default to float32
        array = array.astype(dtypes.default_float)
    return array


_NOT_NUMBERS = frozenset("OUSMm")  # object, str, bytes, datetime, timedelta


def _calling_op() -> str:
    """The name of the op function that called in here (past comprehensions and helpers)."""
    frame = sys._getframe(2)
    while frame.f_back is not None and (frame.f_code.co_name.startswith("<")
                                        or frame.f_code.co_filename == __file__):
        frame = frame.f_back
    return frame.f_code.co_name


def not_an_operand(x, op: str) -> ArgumentError:
    """The error for an operand that is no tensor, array, number or list of numbers; ``op``
    is the function that was given it (the caller's name, looked up only on this path)."""
    return ArgumentError("operand is not a tensor", op=op,
                         expected="a Tensor, an array, a number or a (nested) list of numbers",
                         got=f"{type(x).__name__} {x!r}"[:120])


def promote(op: str, *args):
    """Operands cast to one dtype by :func:`sporeling.core.dtypes.result_type`; Python
    scalars take the tensors' dtype instead of widening them."""
    if len(args) == 2:  # hottest path: a binary op on one dtype, or with a Python scalar
        x, y = args
        first, ty = getattr(x, "dtype", None), type(y)
        if first is not None and type(x) not in _NUMPY_SCALARS:
            if ty in _SCALAR_KIND:
                if _SCALAR_KIND[ty] <= _KIND_RANK.get(first.kind, 3):
                    return x, np.asarray(y, first)
            elif getattr(y, "dtype", None) is first and ty not in _NUMPY_SCALARS:
                return args
    first = getattr(args[0], "dtype", None)
    if first is not None and type(args[0]) not in _NUMPY_SCALARS:  # hot path: no casts
        kind = first.kind
        for a in args[1:]:
            t = type(a)
            if t in _SCALARS:
                if _SCALAR_KIND[t] > _KIND_RANK.get(kind, 3):
                    break
            elif getattr(a, "dtype", None) is not first or t in _NUMPY_SCALARS:
                break
        else:
            return [a if type(a) not in _SCALARS else np.asarray(a, first) for a in args]
    try:
        target = dtypes.result_type(*(a if type(a) in _SCALARS else as_operand(a)
                                      for a in args))
    except DTypeError as exc:
        raise DTypeError(exc.detail, op=op, expected=exc.expected, got=exc.got) from None
    except OverflowError:  # a Python int past 64 bits
        raise ArgumentError("operand too large", op=op, expected="a number a 64-bit dtype "
                            "holds", got=repr([a for a in args if type(a) is int])) from None
    out = []
    for a in args:
        if type(a) in _SCALARS or not is_array(a) or isinstance(a, np.generic):
            try:
                out.append(np.asarray(a, dtype=target))
            except OverflowError:
                raise ArgumentError("operand too large for its dtype", op=op,
                                    expected=f"a value {target} holds", got=repr(a)) from None
        elif a.dtype != target:
            from .dtype import cast
            out.append(cast(a, target))
        else:
            out.append(a)
    return out


def float_operand(x):
    """``x`` cast to the default float if it is bool or integer (``exp(int)`` is a float)."""
    x = as_operand(x)
    if not dtypes.is_floating(x.dtype):
        from .dtype import cast
        return cast(x, dtypes.default_float)
    return x


def broadcast_shapes(op: str, *shapes) -> tuple[int, ...]:
    """NumPy broadcasting, or a ShapeError naming the op and every shape."""
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        raise ShapeError("operands do not broadcast", op=op,
                         expected="per axis, equal sizes or 1",
                         got=" and ".join(str(tuple(s)) for s in shapes)) from None


def same_dtype(op: str, *avals) -> np.dtype:
    """The operands' common dtype; primitives take one dtype (ops promote before binding)."""
    first = np.dtype(avals[0].dtype)
    for a in avals[1:]:
        if np.dtype(a.dtype) != first:
            raise DTypeError("operands have different dtypes", op=op,
                             expected="one dtype (the op functions promote first)",
                             got=", ".join(str(np.dtype(x.dtype)) for x in avals))
    return first


def elementwise_aval(op: str):
    """The abstract rule of a broadcasting elementwise primitive."""
    def rule(*avals, **params):
        return Aval(broadcast_shapes(op, *(a.shape for a in avals)), same_dtype(op, *avals))
    return rule


def check_axes(op: str, axis, ndim: int) -> tuple[int, ...]:
    """``axis`` (None, int or sequence) as sorted non-negative axes, or a ShapeError."""
    if axis is None:
        return tuple(range(ndim))
    raw = (axis,) if isinstance(axis, (int, np.integer)) else check_sequence(op, "axis", axis)
    axes = []
    for a in raw:
        if not isinstance(a, (int, np.integer)) or not -ndim <= a < max(ndim, 1):
            raise ShapeError("axis out of range", op=op,
                             expected=f"ints in [-{ndim}, {ndim}) for a {ndim}-d input",
                             got=repr(axis))
        axes.append(int(a) % max(ndim, 1))
    if len(set(axes)) != len(axes):
        raise ShapeError("repeated axis", op=op, expected="distinct axes", got=repr(axis))
    return tuple(sorted(axes))


def check_sequence(op: str, name: str, value) -> tuple:
    """``value`` (a list, tuple, array...) as a tuple, or an ArgumentError: a str, None or a
    number where a sequence belongs."""
    if not isinstance(value, (str, bytes)):
        try:
            return tuple(value)
        except TypeError:
            pass
    raise ArgumentError(f"bad {name}", op=op, expected="an int or a sequence of ints",
                        got=repr(value)[:80])


def check_shape(op: str, shape, name: str = "shape") -> tuple[int, ...]:
    """An int or a sequence of ints as a tuple of ints, or an ArgumentError; sizes out of
    range are left to the op (a ShapeError that can say what would fit)."""
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        return (int(shape),)
    if type(shape) is tuple and all(type(n) is int for n in shape):
        return shape  # the common case: a tuple of ints (every eager reshape checks it)
    return tuple(check_int(n, name, op=op) for n in check_sequence(op, name, shape))


def check_callable(op: str, name: str, fn):
    """``fn`` if it can be called, else an ArgumentError."""
    if not callable(fn):
        raise ArgumentError(f"bad {name}", op=op, expected="a function",
                            got=f"{type(fn).__name__} {fn!r}"[:80])
    return fn


def unbroadcast(g, shape: tuple[int, ...]):
    """Sum ``g`` down to ``shape`` (the backward of broadcasting)."""
    shape = tuple(shape)
    if tuple(g.shape) == shape:
        return g
    from .reduction import sum as reduce_sum
    from .shape import reshape
    lead = len(g.shape) - len(shape)
    axes = tuple(range(lead)) + tuple(i + lead for i, n in enumerate(shape)
                                      if n == 1 and g.shape[i + lead] != 1)
    return reshape(reduce_sum(g, axes), shape)

