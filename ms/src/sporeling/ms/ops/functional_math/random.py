"""Random generating functions of ``mindspore.ops`` (r2.3) over Sporeling's random
primitives (uniform, normal, randint, permutation): they compile in Graph mode (a fresh draw
on every run) and follow ``ms.set_seed``.

``seed``: None draws from the global stream (reproducible after ``set_seed``); an int makes
the draw a pure function of that seed -- the same values on every call, unlike MindSpore's
stateful kernels, which advance per call. Laplace, categorical and multinomial sampling are
composed (inverse CDF, Gumbel-max, Marsaglia-Tsang for the gamma family); ``random_poisson``
has no primitive to be built from and samples with NumPy (PyNative only).
"""
from __future__ import annotations

import numpy as np

from sporeling.compiler.core import bind
from sporeling.compiler.ops.random import normal_p, permutation_p, randint_p, uniform_p
from sporeling.ms.common import eager_only

from ._util import SporelingError, Tensor, as_numpy, float_of, np_dtype, ops, result, tensor
from .sorting import topk

__all__ = ["uniform", "normal", "standard_normal", "standard_laplace", "laplace", "rand", "rand_like",
           "randn", "randn_like", "randint", "randint_like", "randperm", "bernoulli",
           "multinomial", "multinomial_with_replacement", "random_categorical",
           "random_gamma", "gamma", "random_poisson"]


def _shape(op: str, shape) -> tuple[int, ...]:
    if isinstance(shape, Tensor):
        shape = shape.asnumpy().tolist()
    if isinstance(shape, (int, np.integer)):
        shape = (shape,)
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = shape[0]
    try:
        return tuple(int(n) for n in shape)
    except (TypeError, ValueError):
        raise SporelingError("bad shape", op=op, expected="a tuple of ints",
                             got=repr(shape)) from None


def _seed(seed):
    return ops.seed_operand(None if seed is None else int(seed))


def _unit_uniform(shape, dtype, seed):
    return result(bind(uniform_p, _seed(seed), shape=shape, dtype=np.dtype(dtype),
                       low=0.0, high=1.0))


def _unit_normal(shape, dtype, seed):
    return result(bind(normal_p, _seed(seed), shape=shape, dtype=np.dtype(dtype),
                       mean=0.0, stddev=1.0))


def uniform(shape, minval, maxval, seed=None, dtype=None):
    """Samples from ``[minval, maxval)``; an integer ``dtype`` draws integers (the bounds
    then ints). Tensor bounds broadcast and carry gradients."""
    dtype = np_dtype(dtype) or np.dtype(np.float32)
    shape = _shape("ops.uniform", shape)
    if dtype.kind in "iu":
        low, high = int(as_numpy(minval)), int(as_numpy(maxval))
        return result(bind(randint_p, _seed(seed), shape=shape, dtype=dtype, low=low, high=high))
    unit = _unit_uniform(shape, dtype, seed)
    lo, hi = tensor(minval), tensor(maxval)
    return result(ops.add(ops.mul(unit, ops.sub(hi, lo)), lo))


def normal(shape, mean, stddev, seed=None):
    """Samples from N(``mean``, ``stddev``**2) of ``shape`` broadcast with the parameters'
    shapes (float32); tensor parameters carry gradients."""
    mean, stddev = tensor(mean), tensor(stddev)
    shape = _shape("ops.normal", shape)
    shape = tuple(np.broadcast_shapes(shape, tuple(getattr(mean, "shape", ())),
                                      tuple(getattr(stddev, "shape", ()))))
    return result(ops.add(ops.mul(_unit_normal(shape, np.float32, seed), stddev), mean))


def standard_normal(shape, seed=None, seed2=None):
    """Samples from N(0, 1), float32."""
    return _unit_normal(_shape("ops.standard_normal", shape), np.float32, seed)


def standard_laplace(shape, seed=None, seed2=None):
    """Samples from Laplace(0, 1) by the inverse CDF of a uniform draw, float32."""
    u = ops.sub(_unit_uniform(_shape("ops.standard_laplace", shape), np.float32, seed), 0.5)
    # -sign(u) * log(1 - 2|u|); 1 - 2|u| > 0 since u < 0.5
    return result(ops.mul(ops.neg(ops.sign(u)), ops.log1p(ops.mul(ops.abs(u), -2.0))))


def laplace(shape, mean, lambda_param, seed=None):
    """Samples from Laplace(``mean``, ``lambda_param``) (scale ``lambda_param``)."""
    unit = standard_laplace(shape, seed)
    return result(ops.add(ops.mul(unit, tensor(lambda_param)), tensor(mean)))


def _sizes(size):
    return size[0] if len(size) == 1 and isinstance(size[0], (tuple, list)) else size


def rand(*size, dtype=None, seed=None):
    """Uniform samples from ``[0, 1)`` of shape ``size`` (float32 unless ``dtype``)."""
    return _unit_uniform(_shape("ops.rand", _sizes(size)), np_dtype(dtype) or np.float32, seed)


def rand_like(input, seed=None, *, dtype=None):
    """Uniform samples of ``input``'s shape (and dtype unless ``dtype``)."""
    x = tensor(input)
    return _unit_uniform(tuple(x.shape), np_dtype(dtype) or np.dtype(x.dtype), seed)


def randn(*size, dtype=None, seed=None):
    """Standard normal samples of shape ``size`` (float32 unless ``dtype``)."""
    return _unit_normal(_shape("ops.randn", _sizes(size)), np_dtype(dtype) or np.float32, seed)


def randn_like(input, seed=None, *, dtype=None):
    """Standard normal samples of ``input``'s shape (and dtype unless ``dtype``)."""
    x = tensor(input)
    return _unit_normal(tuple(x.shape), np_dtype(dtype) or np.dtype(x.dtype), seed)


def randint(low, high, size, seed=None, *, dtype=None):
    """Integers uniform in ``[low, high)`` of shape ``size`` (int64 unless ``dtype``)."""
    if not int(low) < int(high):
        raise SporelingError("empty range", op="ops.randint", expected="low < high",
                             got=f"low={low}, high={high}")
    return result(bind(randint_p, _seed(seed), shape=_shape("ops.randint", size),
                       dtype=np_dtype(dtype) or np.dtype(np.int64), low=int(low), high=int(high)))


def randint_like(input, low, high, seed=None, *, dtype=None):
    """Integers uniform in ``[low, high)`` of ``input``'s shape (its dtype unless
    ``dtype``)."""
    x = tensor(input)
    out = randint(low, high, tuple(x.shape), seed, dtype=np.int64)
    return result(ops.cast(out, np_dtype(dtype) or np.dtype(x.dtype)))


def randperm(n, seed=0, offset=0, dtype=None):
    """A random permutation of ``0..n-1`` (int64 unless ``dtype``). ``seed`` 0 (the default)
    draws from the global stream."""
    perm = bind(permutation_p, _seed(None if not seed else int(seed) + int(offset)), n=int(n))
    return result(ops.cast(result(perm), np_dtype(dtype) or np.dtype(np.int64)))


def bernoulli(input, p=0.5, seed=None):
    """0/1 samples of ``input``'s shape and dtype, 1 with probability ``p`` (a number or a
    tensor broadcasting to ``input``)."""
    x = tensor(input)
    u = _unit_uniform(tuple(x.shape), np.float32, seed)
    return result(ops.cast(ops.less(u, tensor(p)), x.dtype))


def _gumbel(shape, seed):
    u = _unit_uniform(shape, np.float32, seed)
    tiny = np.float32(np.finfo(np.float32).tiny)
    return ops.neg(ops.log(ops.neg(ops.log(ops.add(u, tiny)))))


def random_categorical(logits, num_sample, seed=0, dtype=None):
    """``num_sample`` class indices per row of the 2-D ``logits`` (unnormalised log
    probabilities), by the Gumbel-max trick; int64 unless ``dtype``."""
    z = float_of(logits)
    n, c = z.shape
    keys = ops.add(ops.expand_dims(z, 1), _gumbel((n, int(num_sample), c), seed or None))
    return result(ops.cast(ops.argmax(keys, axis=-1), np_dtype(dtype) or np.dtype(np.int64)))


def multinomial(input, num_samples, replacement=True, seed=None):
    """``num_samples`` indices per row drawn with the (unnormalised, non-negative) weights
    ``input`` (1-D or 2-D); without ``replacement`` no index repeats (Gumbel top-k).
    Int64 (MindSpore returns int32)."""
    w = float_of(input)
    one_d = len(w.shape) == 1
    if one_d:
        w = ops.expand_dims(w, 0)
    n, c = w.shape
    if not replacement and int(num_samples) > c:
        raise SporelingError("more samples than categories without replacement",
                             op="ops.multinomial", expected=f"num_samples <= {c}",
                             got=num_samples)
    logw = ops.log(w)
    if replacement:
        keys = ops.add(ops.expand_dims(logw, 1), _gumbel((n, int(num_samples), c), seed))
        out = ops.argmax(keys, axis=-1)
    else:
        out = topk(ops.add(logw, _gumbel((n, c), seed)), int(num_samples))[1]
    return result(ops.squeeze(out, 0) if one_d else out)


def multinomial_with_replacement(x, seed, offset, numsamples, replacement=False):
    """Same as :func:`multinomial` (``seed`` + ``offset`` seed the draw)."""
    key = None if seed is None else int(as_numpy(seed)) + int(as_numpy(offset))
    return multinomial(x, numsamples, replacement, key)


def _offset(seed, k):
    """The ``k``-th of several draws of one call: distinct seeds when ``seed`` is given."""
    return None if seed is None else int(seed) + k


_PROPOSALS = 16   # Marsaglia-Tsang accepts >95% of proposals: all 16 fail with p < 1e-20


def _standard_gamma(alpha, shape, seed):
    """Gamma(``alpha``, 1) samples of ``shape`` (``alpha`` broadcasts to it): Marsaglia and
    Tsang's squeeze method, ``_PROPOSALS`` proposals per sample evaluated at once and the
    first accepted one kept; ``alpha < 1`` draws with ``alpha + 1`` and scales by
    ``U ** (1 / alpha)``."""
    alpha = ops.broadcast_to(float_of(alpha), shape)
    small = ops.less(alpha, 1.0)
    a = ops.where(small, ops.add(alpha, 1.0), alpha)
    d = ops.sub(a, 1.0 / 3.0)
    c = ops.rsqrt(ops.mul(d, 9.0))
    z = _unit_normal((_PROPOSALS, *shape), np.dtype(alpha.dtype), _offset(seed, 0))
    u = _unit_uniform((_PROPOSALS, *shape), np.dtype(alpha.dtype), _offset(seed, 1))
    v = ops.pow(ops.add(ops.mul(c, z), 1.0), 3.0)
    positive = ops.greater(v, 0)
    safe_v = ops.where(positive, v, np.asarray(1, v.dtype))
    bound = ops.add(ops.mul(ops.square(z), 0.5),
                    ops.mul(d, ops.add(ops.sub(1.0, safe_v), ops.log(safe_v))))
    accepted = ops.logical_and(positive, ops.less(ops.log(u), bound))
    first = ops.expand_dims(ops.argmax(ops.cast(accepted, np.int8), axis=0), 0)
    sample = ops.squeeze(ops.take_along_axis(ops.mul(d, safe_v), first, 0), 0)
    boost = ops.pow(_unit_uniform(shape, np.dtype(alpha.dtype), _offset(seed, 2)),
                    ops.reciprocal(alpha))
    return ops.where(small, ops.mul(sample, boost), sample)


def random_gamma(shape, alpha, seed=None):
    """Gamma(``alpha``, 1) samples of shape ``shape + alpha.shape``."""
    alpha = float_of(alpha)
    out_shape = _shape("ops.random_gamma", shape) + tuple(alpha.shape)
    return result(_standard_gamma(alpha, out_shape, seed))


def gamma(shape, alpha, beta, seed=None):
    """Gamma(``alpha``, rate ``beta``) samples of ``shape`` broadcast with the parameters'
    shapes (mean ``alpha / beta``)."""
    alpha, beta = float_of(alpha), float_of(beta)
    size = tuple(np.broadcast_shapes(_shape("ops.gamma", shape), tuple(alpha.shape),
                                     tuple(beta.shape)))
    return result(ops.div(_standard_gamma(alpha, size, seed), beta))


def _numpy_rng(seed):
    return np.random.default_rng(int(as_numpy(ops.seed_operand(None if seed is None else int(seed)))))


@eager_only("ops.random_poisson")
def random_poisson(shape, rate, seed=None, dtype=None):
    """Poisson(``rate``) samples of shape ``shape + rate.shape`` (float32 unless
    ``dtype``). (PyNative only.)"""
    r = as_numpy(rate)
    out = _numpy_rng(seed).poisson(r, size=_shape("ops.random_poisson", shape) + r.shape)
    return Tensor(out.astype(np_dtype(dtype) or np.float32))
