"""The other names 2.10's ``mindspore.ops`` gives math functions the facade has: the
primitive instances of ``ops.functional`` (``tensor_add = P.Add()``, ``reduce_sum =
P.ReduceSum()``, ``top_k = P.TopK()``...), the ``*_ext`` variants (torch-style argument
names), and ``lgamma``/``zeta``. Each maps onto the facade's function with 2.10's argument
names and defaults; the gradients come from those."""
from __future__ import annotations

import numpy as np

from sporeling.ms.common import eager_only

from .comparison import ge, gt, isnan, le, lt
from .creation import range as _range
from .elementwise import add, diff, div, float_power, floor_div, floor_mod, mul, pow, sub
from .gamma_functions import lgamma_real
from .linalg import baddbmm, einsum
from .reduction import amax, amin, mean, sum as _sum
from .random import random_poisson
from .sorting import topk
from .special import _binary_float
from .transcendental import exp, expm1
from ._util import as_numpy, float_of, ops, result

__all__ = ["tensor_add", "tensor_sub", "tensor_mul", "tensor_muls", "tensor_div",
           "tensor_floordiv", "floordiv", "tensor_mod", "floormod", "tensor_pow", "pows",
           "tensor_exp", "tensor_expm1", "tensor_gt", "tensor_ge", "tensor_lt", "tensor_le",
           "tensor_range", "reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "top_k",
           "isnan_ext", "float_power_ext", "diff_ext", "einsum_ext", "baddbmm_ext", "lgamma",
           "zeta", "poisson"]

# ``ops.functional``'s primitive instances of element-wise arithmetic and comparison
tensor_add, tensor_sub, tensor_mul, tensor_muls = add, sub, mul, mul
tensor_div, tensor_pow, pows = div, pow, pow
tensor_floordiv = floordiv = floor_div
tensor_mod = floormod = floor_mod
tensor_exp, tensor_expm1 = exp, expm1
tensor_gt, tensor_ge, tensor_lt, tensor_le = gt, ge, lt, le
isnan_ext = isnan


def tensor_range(start, limit, delta):
    """``P.Range()``: ``start, start + delta, ...`` up to ``limit`` (excluded)."""
    return _range(start, limit, delta)


def reduce_sum(x, axis=(), keep_dims=False):
    """``P.ReduceSum()(x, axis)``: the sum over ``axis`` (``()``: all axes)."""
    return _sum(x, axis if axis != () else None, keep_dims)


def reduce_mean(x, axis=(), keep_dims=False):
    """``P.ReduceMean()(x, axis)``: the mean over ``axis`` (``()``: all axes)."""
    return mean(x, axis if axis != () else None, keep_dims)


def reduce_max(x, axis=(), keep_dims=False):
    """``P.ReduceMax()(x, axis)``: the maximum over ``axis`` (``()``: all axes)."""
    return amax(x, axis if axis != () else None, keep_dims)


def reduce_min(x, axis=(), keep_dims=False):
    """``P.ReduceMin()(x, axis)``: the minimum over ``axis`` (``()``: all axes)."""
    return amin(x, axis if axis != () else None, keep_dims)


def top_k(input_x, k, sorted=True):  # noqa: A002 - MindSpore's name
    """``P.TopK()(input_x, k)``: the ``k`` largest entries of the last axis and their
    indices, ``(values, indices)``."""
    return topk(input_x, k, None, True, sorted)


def float_power_ext(input, exponent):  # noqa: A002
    """:func:`float_power` (``input ** exponent`` in float64)."""
    return float_power(input, exponent)


def diff_ext(input, n=1, dim=-1, prepend=None, append=None):  # noqa: A002
    """:func:`diff` with torch's ``dim``: the ``n``-th forward difference along ``dim``."""
    return diff(input, n, dim, prepend, append)


def einsum_ext(equation, *operands):
    """:func:`einsum`."""
    return einsum(equation, *operands)


def baddbmm_ext(input, batch1, batch2, *, beta=1, alpha=1):  # noqa: A002
    """``beta * input + alpha * (batch1 @ batch2)`` (:func:`baddbmm`, keyword-only
    ``beta``/``alpha``)."""
    return baddbmm(input, batch1, batch2, beta, alpha)


def lgamma(input):  # noqa: A002
    """``log |Gamma(input)|`` element-wise, differentiable (gradient: digamma); below 1/2 by
    the reflection ``log(pi / |sin(pi x)|) - lgamma(1 - x)``; +inf at 0, -1, -2, ... and +-inf."""
    x = float_of(input)
    narrow = np.dtype(x.dtype).itemsize < 4  # float16/bfloat16: the series runs in float32
    if narrow:
        dtype, x = x.dtype, ops.cast(x, np.float32)
    out = lgamma_real(x)
    return result(ops.cast(out, dtype) if narrow else out)


zeta = _binary_float("zeta", "The Hurwitz zeta function ``sum_k (k + other)^-input``.",
                     "ops.zeta")


@eager_only("ops.poisson")
def poisson(shape, mean, seed=None):
    """Poisson(``mean``) samples, float32, of the shape ``shape`` broadcast with
    ``mean``'s (the deprecated form of :func:`random_poisson`; PyNative only)."""
    rate = as_numpy(mean)
    full = tuple(np.broadcast_shapes(tuple(int(s) for s in shape), rate.shape))
    return random_poisson((), np.broadcast_to(rate, full), seed)
