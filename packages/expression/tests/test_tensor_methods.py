"""Tensor methods delegate to the ops: values against NumPy, and they are differentiable."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.compiler import ops

X = np.array([[1.5, -2.0, 3.0], [0.5, 4.0, -1.0]], np.float32)


def need(*names):
    missing = [n for n in names if not hasattr(ops, n)]
    if missing:
        pytest.skip(f"sporeling.compiler.ops lacks {', '.join(missing)} (being written)")


@pytest.mark.parametrize("method, args, ref, ops_used", [
    ("sum", (1,), lambda x: x.sum(1), ("sum",)),
    ("mean", (), lambda x: x.mean(), ("mean",)),
    ("prod", (0, True), lambda x: x.prod(0, keepdims=True), ("prod",)),
    ("max", (1,), lambda x: x.max(1), ("max",)),
    ("min", (), lambda x: x.min(), ("min",)),
    ("argmax", (1,), lambda x: x.argmax(1), ("argmax",)),
    ("argmin", (), lambda x: x.argmin(), ("argmin",)),
    ("std", (0,), lambda x: x.std(0), ("std",)),
    ("var", (None, 1), lambda x: x.var(ddof=1), ("var",)),
    ("norm", (), lambda x: np.linalg.norm(x.ravel()), ("norm",)),
    ("all", (), lambda x: x.all(), ("all",)),
    ("any", (0,), lambda x: (x > 3).any(0) if False else x.any(0), ("any",)),
    ("reshape", (3, 2), lambda x: x.reshape(3, 2), ("reshape",)),
    ("reshape", ((-1,),), lambda x: x.reshape(-1), ("reshape",)),
    ("view", (6,), lambda x: x.reshape(6), ("reshape",)),
    ("transpose", (), lambda x: x.T, ("transpose",)),
    ("permute", (1, 0), lambda x: x.T, ("transpose",)),
    ("swapaxes", (0, 1), lambda x: x.swapaxes(0, 1), ("transpose",)),
    ("flatten", (), lambda x: x.ravel(), ("reshape",)),
    ("expand_dims", (1,), lambda x: x[:, None], ("expand_dims",)),
    ("unsqueeze", (0,), lambda x: x[None], ("expand_dims",)),
    ("repeat", (2, 1), lambda x: x.repeat(2, 1), ("repeat",)),
    ("tile", ((2, 1),), lambda x: np.tile(x, (2, 1)), ("tile",)),
    ("clip", (-1.0, 2.0), lambda x: x.clip(-1, 2), ("clip",)),
    ("clamp", (0.0,), lambda x: x.clip(0, None), ("clip",)),
    ("abs", (), np.abs, ("abs",)),
    ("exp", (), np.exp, ("exp",)),
    ("square", (), np.square, ("square",)),
    ("pow", (2,), lambda x: x ** 2, ("pow",)),
    ("matmul", (X.T,), lambda x: x @ X.T, ("matmul",)),
    ("softmax", (), lambda x: np.exp(x) / np.exp(x).sum(-1, keepdims=True), ("exp",)),
    ("astype", (sx.int32,), lambda x: x.astype(np.int32), ("cast",)),
    ("float", (), lambda x: x, ("cast",)),
    ("int", (), lambda x: x.astype(np.int32), ("cast",)),
    ("long", (), lambda x: x.astype(np.int64), ("cast",)),
    ("bool", (), lambda x: x.astype(bool), ("cast",)),
    ("half", (), lambda x: x.astype(np.float16), ("cast",)),
])
def test_methods_match_numpy(method, args, ref, ops_used):
    need(*ops_used)
    got = getattr(sx.Tensor(X), method)(*args)
    want = np.asarray(ref(X))
    assert isinstance(got, sx.Tensor) and got.shape == want.shape
    if want.dtype != np.float32 or got.dtype != np.float32:
        assert got.dtype == want.dtype
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("method, args", [("log", ()), ("sqrt", ())])
def test_float_math_of_positive_values(method, args):
    need(method)
    x = np.abs(X) + 0.5
    np.testing.assert_allclose(getattr(sx.Tensor(x), method)(*args).asnumpy(),
                               getattr(np, method)(x), rtol=1e-6)


def test_squeeze_and_flatten_ranges():
    need("squeeze")
    t = sx.Tensor(np.zeros((1, 2, 1, 3), np.float32))
    assert t.squeeze().shape == (2, 3) and t.squeeze(2).shape == (1, 2, 3)
    assert t.flatten(1).shape == (1, 6) and t.flatten(0, 1).shape == (2, 1, 3)
    assert sx.Tensor(1.0).flatten().shape == (1,)


@pytest.mark.parametrize("method", ["sum", "mean", "max", "exp", "abs", "square", "flatten",
                                    "softmax", "copy", "norm", "std"])
def test_methods_are_differentiable(method):
    need({"flatten": "reshape", "copy": "add", "softmax": "exp"}.get(method, method))
    x = X.astype(np.float64)
    weights = np.random.default_rng(0).standard_normal(getattr(sx.Tensor(x), method)().shape)
    f = lambda x: (getattr(x, method)() * weights).sum()
    got = sx.grad(f)(sx.Tensor(x)).asnumpy()
    np.testing.assert_allclose(got, numeric_grad(f, x), rtol=1e-5, atol=1e-6)


def numeric_grad(f, x, eps=1e-6):
    """Central differences of scalar ``f`` at float64 ``x``."""
    want = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[i] = eps
        want[i] = (f(sx.Tensor(x + d)).item() - f(sx.Tensor(x - d)).item()) / (2 * eps)
    return want


def test_copy_owns_new_memory_and_detach_cuts_the_graph():
    t = sx.Tensor(X)
    assert t.copy().asnumpy() is not t.asnumpy() and t.clone().tolist() == t.tolist()
    g = sx.grad(lambda x: (x.detach() * x).sum())(t)
    np.testing.assert_allclose(g.asnumpy(), X)
