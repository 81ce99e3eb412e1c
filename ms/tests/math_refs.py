"""Helpers of the ms.ops math tests: compare facade results with NumPy references, check
gradients against central differences, run a function under ``jit``."""
from __future__ import annotations

import numpy as np

import sporeling.expression as sx


def T(data, dtype=None):
    """A Tensor of ``data`` (float32 for Python floats)."""
    return sx.Tensor(np.asarray(data) if dtype is None else np.asarray(data, dtype))


def value(x):
    if isinstance(x, (tuple, list)):
        return type(x)(value(v) for v in x)
    if isinstance(x, sx.Tensor):
        return x.asnumpy()
    return x


def assert_matches(got, expected, rtol=1e-5, atol=1e-6, dtype=None):
    """``got`` (Tensors, tuples of them, Python values) equals ``expected`` (arrays)."""
    got = value(got)
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected), (got, expected)
        for g, e in zip(got, expected):
            assert_matches(g, e, rtol, atol)
        return
    if isinstance(expected, (bool, int, float)) and not isinstance(got, np.ndarray):
        assert got == expected
        return
    expected = np.asarray(expected)
    got = np.asarray(got)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    if dtype is not None:
        assert got.dtype == np.dtype(dtype), (got.dtype, dtype)
    if expected.dtype.kind in "biu" and got.dtype.kind in "biu":
        np.testing.assert_array_equal(got, expected)
    else:
        np.testing.assert_allclose(got.astype(np.float64), expected.astype(np.float64),
                                   rtol=rtol, atol=atol, equal_nan=True)


def numeric_grad(f, x: np.ndarray, weights: np.ndarray, eps=1e-6) -> np.ndarray:
    """Central differences of ``sum(f(x) * weights)`` w.r.t. ``x`` (float64)."""
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += eps
        down[i] -= eps
        fu = np.sum(value(f(sx.Tensor(up))) * weights)
        fd = np.sum(value(f(sx.Tensor(down))) * weights)
        g[i] = (fu - fd) / (2 * eps)
    return g


def assert_grad_matches(f, x: np.ndarray, rtol=1e-5, atol=1e-7, seed=0):
    """``sx.grad`` of ``sum(f(x) * w)`` (random ``w``) equals central differences."""
    x = np.asarray(x, np.float64)
    probe = value(f(sx.Tensor(x)))
    weights = np.random.default_rng(seed).standard_normal(np.shape(probe))
    analytic = sx.grad(lambda t: sx.ops.sum(sx.ops.mul(f(t), sx.Tensor(weights))))(sx.Tensor(x))
    np.testing.assert_allclose(value(analytic), numeric_grad(f, x, weights), rtol=rtol,
                               atol=atol)


def in_graph(f, *args):
    """``f(*args)`` compiled with ``sx.jit`` (Graph mode)."""
    return sx.jit(f)(*args)
