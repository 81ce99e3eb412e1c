"""The values optimisers read and write (Parameters, Tensors, NumPy arrays), for both modes.

An update rule runs eagerly on NumPy arrays, whose results :func:`write` puts into the
target's own buffer, and in a Graph-mode trace on Tensors (:func:`operand`), whose results
:func:`assign` hands to ``set_data`` (an ``assign`` of the compiled step).
"""
from __future__ import annotations

import numpy as np

from sporeling.core import dtypes

from ..tensor.tensor import Tensor, wrap

__all__ = ["to_numpy", "compute_dtype", "write", "operand", "assign"]

_LOW_PRECISION = (dtypes.float16, dtypes.bfloat16)


def to_numpy(value) -> np.ndarray:
    """The value as a NumPy array (no copy when it already is one)."""
    if isinstance(value, np.ndarray):
        return value
    asnumpy = getattr(value, "asnumpy", None)
    return asnumpy() if asnumpy is not None else np.asarray(value)


def compute_dtype(dtype: np.dtype) -> np.dtype:
    """float16/bfloat16 parameters are updated (and their state kept) in float32: their
    own precision would swallow small steps."""
    return dtypes.float32 if dtype in _LOW_PRECISION else dtype


def operand(value, dtype=None) -> Tensor:
    """``value`` as a Tensor (a NumPy array is wrapped, not copied), cast to ``dtype``."""
    if not isinstance(value, Tensor):
        value = wrap(value if isinstance(value, np.ndarray) else np.asarray(value))
    if dtype is not None and value.dtype != dtype:
        value = value.astype(dtype)
    return value


def assign(param, value) -> None:
    """``param.set_data(value)`` in the Parameter's dtype (in a trace: the compiled step's
    ``assign``)."""
    param.set_data(value if value.dtype == param.dtype else value.astype(param.dtype))


def write(param, value: np.ndarray) -> None:
    """Store ``value`` into ``param`` in its dtype, keeping the Parameter object.

    The parameter's own array (``asnumpy()`` shares memory) is overwritten in place when it
    can be: that skips a pool allocation per parameter per step. Otherwise ``set_data``.
    """
    target = to_numpy(param)
    if value is target:
        return
    if target.flags.writeable and target.shape == value.shape:
        np.copyto(target, value, casting="unsafe")
        return
    dtype = getattr(param, "dtype", value.dtype)
    param.set_data(value.astype(dtype, copy=False))
