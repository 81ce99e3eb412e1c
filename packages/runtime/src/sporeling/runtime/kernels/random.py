"""Random kernels. ``rng_seed`` draws the next int64 seed of ``sporeling.core``'s ``"ops"``
stream (reproducible under ``set_seed``); every sampler is a pure function of its ``seed``
operand (an int64 scalar), written into pool memory.

NumPy's generators fill float32 and float64 buffers directly; other float dtypes (float16,
bfloat16) are drawn in float32 and converted.
"""
from __future__ import annotations

import numpy as np

from sporeling.core import generator

from .table import define, output, writes_out

_SEED_HIGH = 2 ** 63 - 1


@define("rng_seed", memory=writes_out())
def rng_seed(backend, out=None):
    """The next seed of the ``"ops"`` stream, as an int64 scalar."""
    result = output(backend, out, (), np.int64)
    result[...] = generator("ops").integers(0, _SEED_HIGH)
    return result


def rng(seed) -> np.random.Generator:
    """The generator of a seed operand (an int64 0-d array or an int)."""
    return np.random.default_rng(int(seed))

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


@define("uniform", memory=writes_out())
def uniform(backend, seed, out=None, *, shape, dtype, low, high):
    """Uniform samples in ``[low, high)``."""
    gen = rng(seed)

    def draw(size, dt, buffer):
        gen.random(size, dtype=dt, out=buffer)
        if (low, high) != (0.0, 1.0):
            buffer *= high - low
            buffer += low
    return _fill(backend, out, shape, dtype, draw)


@define("normal", memory=writes_out())
def normal(backend, seed, out=None, *, shape, dtype, mean, stddev):
    """Normal samples with the given ``mean`` and ``stddev``."""
    gen = rng(seed)

    def draw(size, dt, buffer):
        gen.standard_normal(size, dtype=dt, out=buffer)
        if (mean, stddev) != (0.0, 1.0):
            buffer *= stddev
            buffer += mean
    return _fill(backend, out, shape, dtype, draw)


@define("bernoulli", memory=writes_out())
def bernoulli(backend, probs, seed, out=None, *, shape, dtype):
    """1 where a uniform sample falls below the (broadcast) probability, else 0."""
    draws = rng(seed).random(shape)
    result = output(backend, out, shape, dtype)
    np.less(draws, probs, out=result, casting="unsafe")
    return result


@define("randint", memory=writes_out())
def randint(backend, seed, out=None, *, shape, dtype, low, high):
    """Integers uniform in ``[low, high)``."""
    result = output(backend, out, shape, dtype)
    result[...] = rng(seed).integers(low, high, shape, dtype=dtype)
    return result


@define("permutation", memory=writes_out())
def permutation(backend, seed, out=None, *, n):
    """A permutation of ``range(n)`` as int64."""
    result = output(backend, out, (n,), np.int64)
    result[...] = np.arange(n)
    rng(seed).shuffle(result)
    return result
