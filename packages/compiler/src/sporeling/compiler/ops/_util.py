"""Helpers the op definitions share: operand conversion, promotion, shape rules."""
from __future__ import annotations

import numpy as np

from sporeling.core import DTypeError, ShapeError, dtypes

from ..core import Aval

__all__ = ["is_array", "as_operand", "promote", "float_operand", "broadcast_shapes",
           "same_dtype", "check_axes", "unbroadcast", "elementwise_aval"]

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
    array = np.asarray(x, dtype=dtype)
    if dtype is None and array.dtype.kind == "f":  # Python floats default to float32
        array = array.astype(dtypes.default_float)
    return array


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
    out = []
    for a in args:
        if type(a) in _SCALARS or not is_array(a) or isinstance(a, np.generic):
            out.append(np.asarray(a, dtype=target))
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
    raw = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
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

