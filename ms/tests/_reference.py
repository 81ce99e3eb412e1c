"""Shared helpers for the facade's tests: tensors, finite-difference gradients, Graph mode."""
import numpy as np

import sporeling.expression as sx
import sporeling.ms as ms


def t(a, dtype=np.float32):
    return ms.Tensor(np.asarray(a, dtype))


def np_of(value):
    if isinstance(value, (tuple, list)):
        return type(value)(np_of(v) for v in value)
    return value.asnumpy() if hasattr(value, "asnumpy") else np.asarray(value)


def numeric_grad(f, x, eps=1e-6):
    """d sum(f(x) * w) / dx by central differences in float64 (w fixed random weights)."""
    x = np.asarray(x, np.float64)
    w = np.random.default_rng(1).normal(size=np.shape(np_of(f(ms.Tensor(x)))))
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += eps
        down[i] -= eps
        g[i] = ((np_of(f(ms.Tensor(up))) * w).sum() - (np_of(f(ms.Tensor(down))) * w).sum()) \
            / (2 * eps)
    return g, w


def check_grad(f, x, rtol=1e-5, atol=1e-6):
    """The autodiff gradient of ``sum(f(x) * w)`` matches central differences (float64)."""
    expected, w = numeric_grad(f, x)
    wt = ms.Tensor(w)
    got = sx.grad(lambda x: (f(x) * wt).sum())(ms.Tensor(np.asarray(x, np.float64)))
    np.testing.assert_allclose(np_of(got), expected, rtol=rtol, atol=atol)


def graph_equals_pynative(f, *args, rtol=1e-5, atol=1e-6):
    """``sx.jit(f)`` (Graph mode) gives what PyNative gives."""
    eager = np_of(f(*args))
    compiled = np_of(sx.jit(f)(*args))
    if isinstance(eager, tuple):
        for a, b in zip(eager, compiled):
            np.testing.assert_allclose(b, a, rtol=rtol, atol=atol)
    else:
        np.testing.assert_allclose(compiled, eager, rtol=rtol, atol=atol)
    return eager
