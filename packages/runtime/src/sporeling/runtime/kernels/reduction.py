"""Reduction kernels: over axes (None: all; an int; a tuple), optionally keeping them as 1.

Sums of 16-bit floats accumulate in float32 and round once into the 16-bit result: NumPy
accumulates a bfloat16 ``sum`` in bfloat16, so 10,000 ones sum to 256 (each add of 1 to
256 rounds away). ``sum``, ``prod``, ``mean``, ``logsumexp``, ``var``, ``std``, ``norm``
and ``cumsum`` do so; ``max``/``min`` need not.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from .linalg import LOW_FLOATS, widened
from .table import define, normalize_axes, output, writes_out


@lru_cache(maxsize=None)
def _sum_dtype(dtype: np.dtype) -> np.dtype:
    # NumPy widens small ints and bool to the platform int when summing
    return np.zeros(1, dtype).sum().dtype


def reduced_shape(shape: tuple[int, ...], axes: tuple[int, ...], keepdims: bool):
    return tuple(1 if i in axes else n for i, n in enumerate(shape)
                 if keepdims or i not in axes)


_axes = lru_cache(maxsize=4096)(normalize_axes)
_reduced_shape = lru_cache(maxsize=4096)(reduced_shape)


def _reduction(name: str, fn, dtype=None, accumulate: bool = False):
    """A kernel ``fn(x, axis=, keepdims=, out=)`` writing into pool memory; ``dtype(x.dtype)``
    gives the result's dtype (default: the input's); ``accumulate``: 16-bit floats are
    reduced in float32 (see the module doc)."""
    def kernel(backend, x, out=None, *, axis=None, keepdims=False):
        x = np.asarray(x)
        try:  # a compiled program passes the same axes every call
            axes = _axes(name, axis, x.ndim)
        except TypeError:  # a list: not hashable
            axes = normalize_axes(name, axis, x.ndim)
        if out is None:
            out = backend.allocate(_reduced_shape(x.shape, axes, keepdims),
                                   x.dtype if dtype is None else dtype(x.dtype))
        if accumulate and x.dtype in LOW_FLOATS:
            out[...] = fn(widened(x), axis=axes, keepdims=keepdims,
                          out=np.empty(out.shape, np.float32))
            return out
        return fn(x, axis=axes, keepdims=keepdims, out=out)
    kernel.__name__ = kernel.__qualname__ = f"numpy_{name}"
    kernel.__doc__ = f"NumPy kernel of ``{name}`` over ``axis`` into pool memory."
    return define(name, kernel, memory=writes_out())


_bool = lambda dtype: np.dtype(bool)  # noqa: E731
_reduction("sum", np.sum, _sum_dtype, accumulate=True)
_reduction("prod", np.prod, _sum_dtype, accumulate=True)
_reduction("mean", np.mean, accumulate=True)
_reduction("max", np.max)
_reduction("min", np.min)
_reduction("all", np.all, _bool)
_reduction("any", np.any, _bool)


def _logsumexp(x, axis, keepdims, out):
    m = np.max(x, axis=axis, keepdims=True)
    finite = np.isfinite(m).all()
    if not finite:  # an inf or NaN in a slice: shift those slices by 0 instead
        m = np.where(np.isfinite(m), m, 0).astype(x.dtype)
    np.sum(np.exp(x - m), axis=axis, keepdims=keepdims, out=out)
    if finite:  # each sum holds exp(0) = 1: log is safe
        np.log(out, out=out)
    else:
        with np.errstate(divide="ignore"):  # an all -inf slice: log(0) = -inf is right
            np.log(out, out=out)
    return np.add(out, m.reshape(out.shape), out=out)


_reduction("logsumexp", _logsumexp, accumulate=True)


def _moment(name: str, np_fn, doc: str):
    def kernel(backend, x, out=None, *, axis=None, keepdims=False, ddof=0):
        x = np.asarray(x)
        axes = normalize_axes(name, axis, x.ndim)
        out = output(backend, out, reduced_shape(x.shape, axes, keepdims), x.dtype)
        if x.dtype in LOW_FLOATS:  # accumulate in float32, round once
            out[...] = np_fn(widened(x), axis=axes, ddof=ddof, keepdims=keepdims)
            return out
        return np_fn(x, axis=axes, ddof=ddof, keepdims=keepdims, out=out)
    kernel.__name__, kernel.__doc__ = name, doc
    return define(name, kernel, memory=writes_out())


var = _moment("var", np.var, "Variance with divisor ``N - ddof``.")
std = _moment("std", np.std, "Standard deviation with divisor ``N - ddof``.")


@define("norm", memory=writes_out())
def norm(backend, x, out=None, *, axis=None, keepdims=False, ord=2):
    """Vector norm over ``axis`` (flattened): ``ord`` 2 (Euclidean), 1, or ``inf`` (max |x|)."""
    x = np.asarray(x)
    axes = normalize_axes("norm", axis, x.ndim)
    out = output(backend, out, reduced_shape(x.shape, axes, keepdims), x.dtype)
    if x.dtype in LOW_FLOATS:
        out[...] = norm(backend, widened(x), axis=axes, keepdims=keepdims, ord=ord)
        return out
    if ord == 2:
        np.sum(np.square(x), axis=axes, keepdims=keepdims, out=out)
        return np.sqrt(out, out=out)
    if ord == 1:
        return np.sum(np.abs(x), axis=axes, keepdims=keepdims, out=out)
    if ord == np.inf:
        return np.max(np.abs(x), axis=axes, keepdims=keepdims, out=out)
    raise ValueError(f"norm: ord must be 1, 2 or inf, got {ord!r}")


def _arg(name: str, fn):
    def kernel(backend, x, out=None, *, axis=None, keepdims=False):
        x = np.asarray(x)
        if axis is None:
            shape = (1,) * x.ndim if keepdims else ()
        else:
            (axis,) = normalize_axes(name, axis, x.ndim)
            shape = reduced_shape(x.shape, (axis,), keepdims)
        return fn(x, axis=axis, keepdims=keepdims,
                  out=output(backend, out, shape, np.dtype(np.intp)))
    kernel.__name__ = kernel.__qualname__ = f"numpy_{name}"
    kernel.__doc__ = f"Index (int64) of the first {name[3:]} along one axis (None: flattened)."
    return define(name, kernel, memory=writes_out())


_arg("argmax", np.argmax)
_arg("argmin", np.argmin)


@define("cumsum", memory=writes_out())
def cumsum(backend, x, out=None, *, axis, reverse=False):
    """Running sum along ``axis``; ``reverse`` sums from the end (the backward of cumsum)."""
    x = np.asarray(x)
    (axis,) = normalize_axes("cumsum", axis, x.ndim)
    out = output(backend, out, x.shape, _sum_dtype(x.dtype))
    if x.dtype in LOW_FLOATS:
        out[...] = cumsum(backend, widened(x), axis=axis, reverse=reverse)
        return out
    if reverse:  # accumulate over flipped views: no copies
        np.cumsum(np.flip(x, axis), axis=axis, dtype=out.dtype, out=np.flip(out, axis))
        return out
    return np.cumsum(x, axis=axis, dtype=out.dtype, out=out)
