"""Normalisation kernels: ``normalize`` (statistics and the normalised values in one pass
over the data) and ``rsqrt_eps``."""
from __future__ import annotations

import numpy as np

from ...kernel_registry import KernelMemory
from ..table import define, output, writes_out


def _accumulator(dtype):
    # float16/bfloat16 statistics accumulate in float32 (bfloat16 sums drift otherwise)
    return np.float32 if dtype.itemsize < 4 else None


@define("normalize", memory=KernelMemory.FRESH)
def normalize(backend, x, out=None, *, axis, eps):
    """``(y, mean, var)``: ``y = (x - mean) / sqrt(var + eps)``, biased var, keepdims."""
    acc = _accumulator(x.dtype)
    stats = tuple(1 if i in axis else n for i, n in enumerate(x.shape))
    y, mean, var = out if out is not None else (None, None, None)
    y = output(backend, y, x.shape, x.dtype)
    mean = output(backend, mean, stats, x.dtype)
    var = output(backend, var, stats, x.dtype)
    mean[...] = np.mean(x, axis=axis, keepdims=True, dtype=acc)
    np.subtract(x, mean, out=y)
    var[...] = np.mean(np.square(y, dtype=acc), axis=axis, keepdims=True)
    y *= 1.0 / np.sqrt(var.astype(acc or x.dtype) + eps)
    return y, mean, var


@define("rsqrt_eps", memory=writes_out())
def rsqrt_eps(backend, v, out=None, *, eps):
    """``1 / sqrt(v + eps)``."""
    r = output(backend, out, v.shape, v.dtype)
    np.add(v, eps, out=r)
    np.sqrt(r, out=r)
    np.reciprocal(r, out=r)
    return r
