"""``ms.vjp``/``jvp``/``vmap``/``jacfwd``/``jacrev`` at the top level (2.10 binds them there
and in ``ms.ops``): 2.10's documented examples, and Jacobians against central differences."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sporeling.ms as ms
from sporeling.ms import nn, ops

from _reference import np_of

NAMES = ["vjp", "jvp", "vmap", "jacfwd", "jacrev"]


@pytest.mark.parametrize("name", NAMES)
def test_top_level_names_are_the_ops_functions(name):
    assert getattr(ms, name) is getattr(ms.ops, name)


def _fd_jacobian(f, x, eps=1e-6):
    """d f(x) / d x by central differences in float64, shape f(x).shape + x.shape."""
    out = np_of(f(ms.Tensor(x)))
    jac = np.zeros(out.shape + x.shape)
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += eps
        down[i] -= eps
        jac[(...,) + i] = (np_of(f(ms.Tensor(up))) - np_of(f(ms.Tensor(down)))) / (2 * eps)
    return jac


def _nonlinear(x):
    """(2, 3) -> (3, 2): mixes elements, so the Jacobian is dense."""
    y = ops.matmul(ops.transpose(ops.sin(x), (1, 0)), ops.exp(ops.mul(x, 0.3)))
    return ops.mul(y[:, :2], ops.tanh(ops.transpose(x, (1, 0))))


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_jacobians_match_finite_differences(seed):
    x = np.random.default_rng(seed).normal(size=(2, 3))
    expected = _fd_jacobian(_nonlinear, x)
    for jac in (ms.jacrev, ms.jacfwd):
        got = np_of(jac(_nonlinear)(ms.Tensor(x)))
        assert got.shape == (3, 2, 2, 3)
        np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-8)


def test_jacobians_of_several_inputs():
    x = np.random.default_rng(3).normal(size=3)
    y = np.random.default_rng(4).normal(size=3)

    def f(a, b):
        return ops.mul(ops.sin(a), ops.exp(b))
    for jac in (ms.jacrev, ms.jacfwd):
        ja, jb = jac(f, grad_position=(0, 1))(ms.Tensor(x), ms.Tensor(y))
        np.testing.assert_allclose(np_of(ja), np.diag(np.cos(x) * np.exp(y)), rtol=1e-6)
        np.testing.assert_allclose(np_of(jb), np.diag(np.sin(x) * np.exp(y)), rtol=1e-6)
        only_b = jac(f, grad_position=1)(ms.Tensor(x), ms.Tensor(y))
        np.testing.assert_allclose(np_of(only_b), np.diag(np.sin(x) * np.exp(y)), rtol=1e-6)


def test_jacfwd_documented_example():
    class MultipleInputsMultipleOutputsNet(nn.Cell):
        def construct(self, x, y, z):
            return x ** 2 + y ** 2 + z ** 2, x * y * z
    x = ms.Tensor(np.array([[1, 2], [3, 4]]).astype(np.float32))
    z = ms.Tensor(np.ones((2, 2), np.float32))
    jac, aux = ms.jacfwd(MultipleInputsMultipleOutputsNet(), grad_position=0,
                         has_aux=True)(x, x, z)
    expected = np.zeros((2, 2, 2, 2), np.float32)
    for i, j in np.ndindex(2, 2):
        expected[i, j, i, j] = 2 * np_of(x)[i, j]
    np.testing.assert_allclose(np_of(jac), expected)
    np.testing.assert_allclose(np_of(aux), [[1, 4], [9, 16]])
    jac_rev, _ = ms.jacrev(MultipleInputsMultipleOutputsNet(), has_aux=True)(x, x, z)
    np.testing.assert_allclose(np_of(jac_rev), expected)


def test_vjp_documented_example():
    class Net(nn.Cell):
        def construct(self, x, y):
            return x ** 3 + y
    x = ms.Tensor(np.array([[1, 2], [3, 4]]).astype(np.float32))
    v = ms.Tensor(np.ones((2, 2), np.float32))
    outputs, vjp_fn = ms.vjp(Net(), x, x)
    np.testing.assert_allclose(np_of(outputs), [[2, 10], [30, 68]])
    gx, gy = vjp_fn(v)
    np.testing.assert_allclose(np_of(gx), [[3, 12], [27, 48]])
    np.testing.assert_allclose(np_of(gy), np.ones((2, 2)))

    def fn(a, b):
        return 2 * a + b, b ** 3
    outputs, vjp_fn, aux = ms.vjp(fn, x, x, has_aux=True)
    np.testing.assert_allclose(np_of(outputs), [[3, 6], [9, 12]])
    np.testing.assert_allclose(np_of(aux), [[1, 8], [27, 64]])
    np.testing.assert_allclose(np_of(vjp_fn(v)[0]), 2 * np.ones((2, 2)))


def test_jvp_matches_the_finite_difference_jacobian():
    rng = np.random.default_rng(5)
    x, v = rng.normal(size=(2, 3)), rng.normal(size=(2, 3))
    out, tangent = ms.jvp(_nonlinear, ms.Tensor(x), ms.Tensor(v))
    np.testing.assert_allclose(np_of(out), np_of(_nonlinear(ms.Tensor(x))))
    expected = np.tensordot(_fd_jacobian(_nonlinear, x), v, axes=2)
    np.testing.assert_allclose(np_of(tangent), expected, rtol=1e-6, atol=1e-8)
    u = rng.normal(size=(3, 2))
    _, vjp_fn = ms.vjp(_nonlinear, ms.Tensor(x))
    (cotangent,) = vjp_fn(ms.Tensor(u))
    np.testing.assert_allclose(np_of(cotangent),
                               np.tensordot(u, _fd_jacobian(_nonlinear, x), axes=2),
                               rtol=1e-6, atol=1e-8)


def test_vmap_rows_and_per_row_jacrev():
    batch = np.random.default_rng(6).normal(size=(4, 3))
    w = np.random.default_rng(7).normal(size=(3, 3))

    def row_fn(row):
        return ops.sin(ops.matmul(ms.Tensor(w), row))
    per_row = ms.vmap(row_fn)(ms.Tensor(batch))
    np.testing.assert_allclose(np_of(per_row), np.sin(batch @ w.T), rtol=1e-6)
    for row in batch:
        expected = np.cos(w @ row)[:, None] * w
        np.testing.assert_allclose(np_of(ms.jacrev(row_fn)(ms.Tensor(row))), expected,
                                   rtol=1e-6, atol=1e-9)


def test_vmap_over_the_array_functions():
    """functional_array's ops turned vmap's batched values into arrays ("a batched value
    inside vmap has no single array value")."""
    x = np.random.default_rng(0).random((3, 4)).astype(np.float32)
    got = ms.vmap(lambda r: ms.ops.tanh(ms.ops.reshape(r, (2, 2))))(ms.Tensor(x))
    np.testing.assert_allclose(got.asnumpy(), np.tanh(x).reshape(3, 2, 2), rtol=1e-6)
