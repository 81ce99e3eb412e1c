"""NumPy views of the values optimisers read and write (Parameters, Tensors, arrays).

Kept apart so that the optimisers depend on the Parameter contract (``asnumpy()``,
``set_data()``) only, not on how the Tensor stores its data.
"""
from __future__ import annotations

import numpy as np

from sporeling.core import dtypes

__all__ = ["to_numpy", "compute_dtype", "write"]

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


def write(param, value: np.ndarray) -> None:
    """Store ``value`` into ``param`` in its dtype, keeping the Parameter object.

    The parameter's own array (``asnumpy()`` shares memory) is overwritten in place when it
    can be: that skips a pool allocation per parameter per step. Otherwise ``set_data``.
    """
    target = to_numpy(param)
    if value is target:  # the optimiser updated the parameter's own array in place
        return
    if target.flags.writeable and target.shape == value.shape:
        np.copyto(target, value, casting="unsafe")
        return
    dtype = getattr(param, "dtype", value.dtype)
    param.set_data(value.astype(dtype, copy=False))
