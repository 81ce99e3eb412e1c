"""Tensor methods delegate to the ops: values against NumPy, and they are differentiable."""
import numpy as np
import pytest

import sporeling.expression as sx

X = np.array([[1.5, -2.0, 3.0], [0.5, 4.0, -1.0]], np.float32)


@pytest.mark.parametrize("method, args, ref", [
    ("sum", (1,), lambda x: x.sum(1)),
    ("mean", (), lambda x: x.mean()),
    ("prod", (0, True), lambda x: x.prod(0, keepdims=True)),
    ("max", (1,), lambda x: x.max(1)),
    ("min", (), lambda x: x.min()),
    ("argmax", (1,), lambda x: x.argmax(1)),
    ("argmin", (), lambda x: x.argmin()),
    ("std", (0,), lambda x: x.std(0)),
    ("var", (None, 1), lambda x: x.var(ddof=1)),
    ("norm", (), lambda x: np.linalg.norm(x.ravel())),
    ("all", (), lambda x: x.all()),
    ("any", (0,), lambda x: (x > 3).any(0) if False else x.any(0)),
    ("reshape", (3, 2), lambda x: x.reshape(3, 2)),
    ("reshape", ((-1,),), lambda x: x.reshape(-1)),
    ("view", (6,), lambda x: x.reshape(6)),
    ("transpose", (), lambda x: x.T),
    ("permute", (1, 0), lambda x: x.T),
    ("swapaxes", (0, 1), lambda x: x.swapaxes(0, 1)),
    ("flatten", (), lambda x: x.ravel()),
    ("expand_dims", (1,), lambda x: x[:, None]),
    ("unsqueeze", (0,), lambda x: x[None]),
    ("repeat", (2, 1), lambda x: x.repeat(2, 1)),
    ("tile", ((2, 1),), lambda x: np.tile(x, (2, 1))),
    ("clip", (-1.0, 2.0), lambda x: x.clip(-1, 2)),
    ("clamp", (0.0,), lambda x: x.clip(0, None)),
    ("abs", (), np.abs),
    ("exp", (), np.exp),
    ("square", (), np.square),
    ("pow", (2,), lambda x: x ** 2),
    ("matmul", (X.T,), lambda x: x @ X.T),
    ("softmax", (), lambda x: np.exp(x) / np.exp(x).sum(-1, keepdims=True)),
    ("astype", (sx.int32,), lambda x: x.astype(np.int32)),
    ("float", (), lambda x: x),
    ("int", (), lambda x: x.astype(np.int32)),
    ("long", (), lambda x: x.astype(np.int64)),
    ("bool", (), lambda x: x.astype(bool)),
    ("half", (), lambda x: x.astype(np.float16)),
])
def test_methods_match_numpy(method, args, ref):
    got = getattr(sx.Tensor(X), method)(*args)
    want = np.asarray(ref(X))
    assert isinstance(got, sx.Tensor) and got.shape == want.shape
    if want.dtype != np.float32 or got.dtype != np.float32:
        assert got.dtype == want.dtype
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("method, args", [("log", ()), ("sqrt", ())])
def test_float_math_of_positive_values(method, args):
    x = np.abs(X) + 0.5
    np.testing.assert_allclose(getattr(sx.Tensor(x), method)(*args).asnumpy(),
                               getattr(np, method)(x), rtol=1e-6)


def test_squeeze_and_flatten_ranges():
    t = sx.Tensor(np.zeros((1, 2, 1, 3), np.float32))
    assert t.squeeze().shape == (2, 3) and t.squeeze(2).shape == (1, 2, 3)
    assert t.flatten(1).shape == (1, 6) and t.flatten(0, 1).shape == (2, 1, 3)
    assert sx.Tensor(1.0).flatten().shape == (1,)


@pytest.mark.parametrize("method", ["sum", "mean", "max", "exp", "abs", "square", "flatten",
                                    "softmax", "copy", "norm", "std"])
def test_methods_are_differentiable(method):
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
