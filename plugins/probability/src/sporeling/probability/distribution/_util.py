"""What the distributions share: parameters as Tensors of one float dtype, broadcasting,
reading a value when it is concrete (PyNative) for ``validate_args``."""
from __future__ import annotations

import numpy as np

from sporeling.compiler import ops
from sporeling.compiler.core import locate
from sporeling.core import DTypeError, dtypes
from sporeling.expression import Tensor

__all__ = ["as_tensor", "float_params", "is_concrete", "concrete", "broadcast_params",
           "safe_where"]


def as_tensor(x, dtype=None) -> Tensor:
    """``x`` as a Tensor (a Tensor or Parameter stays itself, so gradients reach it; so does
    another interpreter's operand, such as a tracer of ``sporeling.compiler``'s transforms).
    """
    if isinstance(x, Tensor) or (hasattr(x, "_interpreter") and hasattr(x, "dtype")):
        return x if dtype is None or x.dtype == dtype else ops.cast(x, dtype)
    array = np.asarray(x)
    if dtype is None:
        dtype = array.dtype if array.dtype.kind == "f" else dtypes.default_float
    return Tensor(array.astype(dtype, copy=False))


def float_params(*params, dtype=None) -> list[Tensor]:
    """``params`` as Tensors of ``dtype`` (a float dtype), by default their common float
    dtype: that of the arrays and Tensors among them (float32 when all are Python numbers
    or non-float)."""
    if dtype is not None:
        dtype = dtypes.dtype(dtype)
        if not dtypes.is_floating(dtype):
            raise locate(DTypeError("parameters need a float dtype", op="distribution",
                                    expected="a float dtype", got=str(dtype)))
        return [as_tensor(p, dtype) for p in params]
    kinds = [np.dtype(p.dtype) for p in params
             if hasattr(p, "dtype") and np.dtype(p.dtype).kind == "f"]
    dtype = np.result_type(*kinds) if kinds else np.dtype(dtypes.default_float)
    return [as_tensor(p, dtype) for p in params]


def broadcast_params(*params: Tensor) -> tuple[tuple[int, ...], list[Tensor]]:
    """The broadcast shape of ``params`` and each of them broadcast to it."""
    shape = np.broadcast_shapes(*(tuple(p.shape) for p in params))
    return shape, [p if tuple(p.shape) == shape else ops.broadcast_to(p, shape)
                   for p in params]


def is_concrete(x) -> bool:
    """Whether ``x``'s data can be read now (not a tracer of a graph being compiled)."""
    data = getattr(x, "_data", x)
    return isinstance(data, (np.ndarray, np.generic, int, float))


def concrete(x) -> np.ndarray:
    return np.asarray(x.asnumpy() if isinstance(x, Tensor) else x)


def safe_where(mask, value, fallback):
    """``value`` where ``mask`` holds, else ``fallback`` (a number of ``value``'s dtype)."""
    return ops.where(mask, value, np.asarray(fallback, value.dtype))
