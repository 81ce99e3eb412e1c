"""Random kernels: each a pure function of its ``seed`` parameter, written into pool memory.

NumPy's generators fill float32 and float64 buffers directly; other float dtypes (float16,
bfloat16) are drawn in float32 and converted.
"""
from __future__ import annotations

import numpy as np

from .table import define, output

_DIRECT = (np.dtype(np.float32), np.dtype(np.float64))


def _fill(backend, out, shape, dtype, draw):
    """``draw(size, dtype, out)`` into a pool buffer, through float32 if NumPy cannot."""
    result = output(backend, out, shape, dtype)
    if np.dtype(dtype) in _DIRECT:
        draw(shape, np.dtype(dtype), result)
    else:
        tmp = np.empty(shape, np.float32)
        draw(shape, np.dtype(np.float32), tmp)
        np.copyto(result, tmp, casting="unsafe")
    return result


@define("uniform")
def uniform(backend, out=None, *, shape, dtype, seed, low, high):
    """Uniform samples in ``[low, high)``."""
    rng = np.random.default_rng(seed)

    def draw(size, dt, buffer):
        rng.random(size, dtype=dt, out=buffer)
        if (low, high) != (0.0, 1.0):
            buffer *= high - low
            buffer += low
    return _fill(backend, out, shape, dtype, draw)


@define("normal")
def normal(backend, out=None, *, shape, dtype, seed, mean, stddev):
    """Normal samples with the given ``mean`` and ``stddev``."""
    rng = np.random.default_rng(seed)

    def draw(size, dt, buffer):
        rng.standard_normal(size, dtype=dt, out=buffer)
        if (mean, stddev) != (0.0, 1.0):
            buffer *= stddev
            buffer += mean
    return _fill(backend, out, shape, dtype, draw)


@define("bernoulli")
def bernoulli(backend, probs, out=None, *, shape, dtype, seed):
    """1 where a uniform sample falls below the (broadcast) probability, else 0."""
    draws = np.random.default_rng(seed).random(shape)
    result = output(backend, out, shape, dtype)
    np.less(draws, probs, out=result, casting="unsafe")
    return result


@define("randint")
def randint(backend, out=None, *, shape, dtype, seed, low, high):
    """Integers uniform in ``[low, high)``."""
    result = output(backend, out, shape, dtype)
    result[...] = np.random.default_rng(seed).integers(low, high, shape, dtype=dtype)
    return result


@define("permutation")
def permutation(backend, out=None, *, n, seed):
    """A permutation of ``range(n)`` as int64."""
    result = output(backend, out, (n,), np.int64)
    result[...] = np.arange(n)
    np.random.default_rng(seed).shuffle(result)
    return result
