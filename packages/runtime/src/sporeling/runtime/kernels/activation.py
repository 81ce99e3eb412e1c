"""Activation kernels, numerically stable for large |x| (no overflow, no NaN at +-1e4)."""
from __future__ import annotations

import math

import numpy as np
from numpy.polynomial import chebyshev

from .table import broadcast_shape, define, define_ufunc, output, writes_out

define_ufunc("tanh", np.tanh)


def _interpolate(fn, degree, lo, hi, dtype):
    # Chebyshev interpolant of the C library's erf on [lo, hi] (accurate to the last bits)
    coef = chebyshev.Chebyshev.interpolate(np.vectorize(fn), degree, domain=[lo, hi]).coef
    return coef.astype(dtype)


def _erf_tables(dtype, small_degree, big_degree, cutoff):
    """erf(x) = x P(x^2) for |x| < 1; 1 - exp(-x^2) Q(|x|) for 1 <= |x| < cutoff; +-1 beyond
    (erfc(cutoff) is below the dtype's resolution at 1: 2e-17 at 6, 2e-8 at 4)."""
    small = _interpolate(lambda s: math.erf(math.sqrt(s)) / math.sqrt(s), small_degree,
                         0.0, 1.0, dtype)
    big = _interpolate(lambda a: math.erfc(a) * math.exp(a * a), big_degree, 1.0, cutoff, dtype)
    return np.dtype(dtype), small, big, cutoff


# float64 to ~1e-15 relative; float32 (and narrower, computed in float32) to ~2e-7
_ERF_TABLES = {8: _erf_tables(np.float64, 12, 25, 6.0), 4: _erf_tables(np.float32, 6, 10, 4.0)}


def erf_values(x) -> np.ndarray:
    """The error function of ``x``: float64 for float64 input, else float32."""
    x = np.asarray(x)
    dtype, small_coef, big_coef, cutoff = _ERF_TABLES[8 if x.dtype.itemsize >= 8 else 4]
    x = x.astype(dtype, copy=False)
    a = np.abs(x)
    res = np.empty_like(a)
    small = a < 1.0
    s = a[small]
    res[small] = s * chebyshev.chebval(2.0 * s * s - 1.0, small_coef)
    big = ~small  # also NaN, which stays NaN
    b = np.minimum(a[big], cutoff)
    t = (2.0 * b - (cutoff + 1.0)) / (cutoff - 1.0)
    res[big] = 1.0 - np.exp(-b * b) * chebyshev.chebval(t, big_coef)
    return np.copysign(res, x, out=res)


def _like(backend, out, x):
    return output(backend, out, np.shape(x), np.asarray(x).dtype)


@define("erf", memory=writes_out())
def erf(backend, x, out=None):
    """The error function (own Chebyshev approximation, no SciPy)."""
    out = _like(backend, out, x)
    np.copyto(out, erf_values(x), casting="unsafe")
    return out


@define("sigmoid", memory=writes_out())
def sigmoid(backend, x, out=None):
    """``1 / (1 + exp(-x))`` through ``exp(-|x|)``, which never overflows."""
    out = _like(backend, out, x)
    e = np.exp(-np.abs(x))
    np.divide(np.where(x >= 0, 1, e), 1 + e, out=out)
    return out


@define("silu", memory=writes_out())
def silu(backend, x, out=None):
    """``x * sigmoid(x)``."""
    out = sigmoid(backend, x, out=_like(backend, out, x))
    return np.multiply(x, out, out=out)


@define("softplus", memory=writes_out())
def softplus(backend, x, out=None, *, beta=1.0, threshold=20.0):
    """``log(1 + exp(beta x)) / beta``, linear where ``beta x > threshold`` (PyTorch's)."""
    out = _like(backend, out, x)
    z = np.asarray(x) if beta == 1 else np.multiply(x, beta)
    np.logaddexp(0, z, out=out)  # stable: no overflow for large |z|
    if beta != 1:
        np.divide(out, beta, out=out)
    np.copyto(out, x, where=z > threshold)
    return out


@define("leaky_relu", memory=writes_out())
def leaky_relu(backend, x, out=None, *, alpha=0.01):
    """``x`` where positive, ``alpha * x`` elsewhere."""
    out = np.multiply(x, alpha, out=_like(backend, out, x))
    np.copyto(out, x, where=np.asarray(x) > 0)
    return out


_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


@define("gelu", memory=writes_out())
def gelu(backend, x, out=None, *, approximate="none"):
    """``x * Phi(x)`` (``approximate="none"``) or its tanh approximation."""
    out = _like(backend, out, x)
    if approximate == "tanh":
        inner = np.tanh(_SQRT_2_OVER_PI * (x + 0.044715 * x * x * x))
    else:
        inner = erf_values(np.asarray(x) * (1.0 / math.sqrt(2.0)))
    np.multiply(0.5 * x, 1.0 + inner, out=out, casting="unsafe")
    return out


# ---- fused backward kernels: op_grad(out, ct) from the forward output ----------------------

def _grad_output(backend, out, op, y, g):
    shape = y.shape if y.shape == g.shape else broadcast_shape(op, y.shape, g.shape)
    return output(backend, out, shape, y.dtype)


# out may be y (read first) or g: greater(y, 0) into out then times g, or g * mask
@define("relu_grad", memory=writes_out(0, 1))
def relu_grad(backend, y, g, out=None):
    """``g`` where ``y > 0``, else 0 (relu's backward from its output)."""
    if out is not None and np.may_share_memory(out, g):  # the mask must not overwrite g
        return np.multiply(g, np.greater(y, 0), out=out)
    # the 0/1 mask straight into out, then times g: no boolean temporary (~10% faster)
    out = np.greater(y, 0, out=_grad_output(backend, out, "relu_grad", y, g))
    return np.multiply(out, g, out=out)


# y*y into out, then 1 - out, then out * g: out may be y (read first), never g
@define("tanh_grad", memory=writes_out(0))
def tanh_grad(backend, y, g, out=None):
    """``g * (1 - y**2)`` (tanh's backward from its output)."""
    out = np.multiply(y, y, out=_grad_output(backend, out, "tanh_grad", y, g))
    np.subtract(1, out, out=out)
    return np.multiply(out, g, out=out)


@define("sigmoid_grad", memory=writes_out())
def sigmoid_grad(backend, y, g, out=None):
    """``g * y * (1 - y)`` (sigmoid's backward from its output)."""
    out = np.subtract(1, y, out=_grad_output(backend, out, "sigmoid_grad", y, g))
    np.multiply(out, y, out=out)
    return np.multiply(out, g, out=out)
