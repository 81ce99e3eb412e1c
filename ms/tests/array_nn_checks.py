"""Shared checks for engineer B's facade tests: gradients against central differences
(float64) and Graph mode (``sx.jit``) against PyNative."""
from __future__ import annotations

import numpy as np

import sporeling.expression as sx


def T(a, dtype=None):
    """A Tensor of ``a`` (NumPy's dtype unless given)."""
    return sx.Tensor(np.asarray(a, dtype=dtype))


def value(x):
    """NumPy value of a Tensor, a tuple of them, or a number."""
    if isinstance(x, (tuple, list)):
        return type(x)(value(v) for v in x)
    return x.asnumpy() if isinstance(x, sx.Tensor) else np.asarray(x)


def check_grad(fn, *arrays, argnum=0, eps=1e-6, rtol=1e-4, atol=1e-6, seed=0):
    """d/dx sum(w * fn(...)) by sx.grad equals central differences (float64 inputs)."""
    arrays = [np.asarray(a, np.float64) for a in arrays]
    out = value(fn(*[T(a) for a in arrays]))
    weights = np.random.default_rng(seed).standard_normal(np.shape(out))

    def scalar(*tensors):
        return sx.ops.sum(fn(*tensors) * T(weights))

    got = value(sx.grad(scalar, argnum)(*[T(a) for a in arrays]))
    base = arrays[argnum]
    numeric = np.zeros_like(base)
    for i in np.ndindex(base.shape):
        for sign in (1, -1):
            shifted = [a.copy() for a in arrays]
            shifted[argnum][i] += sign * eps
            numeric[i] += sign * float(value(scalar(*[T(a) for a in shifted])))
        numeric[i] /= 2 * eps
    np.testing.assert_allclose(got, numeric, rtol=rtol, atol=atol)


def check_jit(fn, *arrays, rtol=1e-6, atol=1e-6):
    """``sx.jit(fn)`` gives what PyNative gives."""
    tensors = [T(a) for a in arrays]
    eager = value(fn(*tensors))
    compiled = value(sx.jit(fn)(*tensors))
    if isinstance(eager, (tuple, list)):
        for e, c in zip(eager, compiled):
            np.testing.assert_allclose(c, e, rtol=rtol, atol=atol)
    else:
        np.testing.assert_allclose(compiled, eager, rtol=rtol, atol=atol)
