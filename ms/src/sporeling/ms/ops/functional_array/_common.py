"""Helpers the functional_array modules share: operands as sx Tensors, axes, reductions."""
from __future__ import annotations

import numpy as np

import sporeling.expression as sx
from sporeling.core.arguments import check_int
from sporeling.core.errors import DTypeError, ShapeError, SporelingError
from sporeling.ms.common.dtype import to_numpy

ops = sx.ops
Tensor = sx.Tensor

__all__ = ["ops", "Tensor", "tensor", "to_numpy", "tuple_of", "reduce_loss", "float_like",
           "value_of", "full_like", "ShapeError", "DTypeError", "SporelingError", "canonical_axis"]


def tensor(x, dtype=None):
    """``x`` as an sx Tensor (Tensors, traced Tensors and Parameters pass through, and so do
    the values of a transformation such as ``vmap``'s batched ones)."""
    if dtype is None and getattr(x, "_interpreter", None) is not None and \
            not isinstance(x, Tensor):
        return x
    if isinstance(x, Tensor):
        return x if dtype is None or x.dtype == to_numpy(dtype) else ops.cast(x, to_numpy(dtype))
    array = np.asarray(x, dtype=to_numpy(dtype))
    if dtype is None and array.dtype == np.float64 and not isinstance(x, np.ndarray):
        array = array.astype(np.float32)  # Python floats are float32, as in MindSpore
    return Tensor(array)


def value_of(x, op: str | None = None, what: str | None = None,
             hint: str | None = None) -> np.ndarray:
    """The NumPy value of ``x``. A traced Tensor has none: with ``op`` and ``what`` the error
    says which argument of which function needs a constant under Graph mode."""
    if not isinstance(x, Tensor):
        return np.asarray(x)
    try:
        return x.asnumpy()
    except SporelingError as exc:
        if op is None:
            raise
        raise SporelingError(f"{op} needs the value of {what}, which a Graph-mode trace does "
                             "not have", op=op,
                             expected=f"{what} as a constant (a NumPy array or Python value)",
                             got="a traced Tensor",
                             hint=hint or "pass a constant, or call it in PyNative mode") from exc


def tuple_of(value, n: int, name: str, op: str) -> tuple:
    """An int (or a sequence of ``n`` ints) as a tuple of ``n`` ints."""
    if isinstance(value, (int, np.integer)):
        return (int(value),) * n
    value = tuple(int(v) for v in value)
    if len(value) == 1:
        return value * n
    if len(value) != n:
        raise ShapeError(f"bad {name}", op=op, expected=f"an int or {n} ints", got=repr(value))
    return value


def canonical_axis(axis: int, ndim: int, op: str) -> int:
    """``axis`` in ``[0, ndim)``; negative axes count from the end."""
    axis = check_int(axis, "axis", op=op)
    if not -ndim <= axis < max(ndim, 1):
        raise ShapeError("axis out of range", op=op, expected=f"an axis in [{-ndim}, {ndim})",
                         got=axis)
    return axis % max(ndim, 1)


def reduce_loss(loss, reduction: str, op: str):
    """MindSpore's ``reduction``: 'none' | 'mean' | 'sum'."""
    if reduction == "mean":
        return ops.mean(loss)
    if reduction == "sum":
        return ops.sum(loss)
    if reduction == "none":
        return loss
    raise SporelingError("unknown reduction", op=op, expected="'none', 'mean' or 'sum'",
                         got=repr(reduction))


def float_like(x):
    """``x`` as a float Tensor (ints and bools become float32)."""
    x = tensor(x)
    return x if x.dtype.kind == "f" else ops.cast(x, np.float32)


def full_like(x, value):
    """A constant tensor of ``x``'s shape and dtype (``x * 0 + v`` would carry NaN/inf)."""
    return ops.broadcast_to(Tensor(np.asarray(value, dtype=x.dtype)), tuple(x.shape))
