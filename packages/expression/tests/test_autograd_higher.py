"""Grad of grad: backward rules run on Tensors and are recorded by the outer grad."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.expression.autograd.state import STATE

ops = sx.ops


def numeric_grad(f, x, eps=1e-6):
    x = np.asarray(x, np.float64)
    out = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[i] = eps
        out[i] = (f(sx.Tensor(x + d)).item() - f(sx.Tensor(x - d)).item()) / (2 * eps)
    return out


def test_second_and_third_derivatives():
    cube = lambda x: (x ** 3).sum()
    x = sx.Tensor(np.array([1.5, -2.0], np.float64))
    np.testing.assert_allclose(sx.grad(cube)(x).asnumpy(), 3 * x.asnumpy() ** 2)
    d2 = sx.grad(lambda x: sx.grad(cube)(x).sum())(x)
    np.testing.assert_allclose(d2.asnumpy(), 6 * x.asnumpy())
    d3 = sx.grad(lambda x: sx.grad(lambda y: sx.grad(cube)(y).sum())(x).sum())(x)
    np.testing.assert_allclose(d3.asnumpy(), [6.0, 6.0])
    assert STATE.level == 0 and STATE.tape is None


@pytest.mark.parametrize("fn", [
    lambda x: ops.exp(x * 0.5).sum(),            # the rule reads the output
    lambda x: ops.tanh(x).sum(),
    lambda x: (ops.sigmoid(x) * x).sum(),
    lambda x: (x / (1.0 + x * x)).sum(),
    lambda x: ops.log(x * x + 1.0).mean(),
    lambda x: (x.reshape(2, 2) @ x.reshape(2, 2)).sum(),
    lambda x: (x[1:] * x[:-1]).sum() + x.max(),
])
def test_hessian_diagonal_sum_matches_finite_differences(fn):
    x = np.array([0.3, -0.7, 1.1, 0.4])
    gsum = lambda x: sx.grad(fn)(x).sum()
    np.testing.assert_allclose(sx.grad(gsum)(sx.Tensor(x)).asnumpy(), numeric_grad(gsum, x),
                               rtol=1e-5, atol=1e-7)


def test_hessian_vector_product():
    a = np.array([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]])
    A = sx.Tensor(a)
    f = lambda x: 0.5 * (x * (A @ x)).sum() + (x ** 4).sum()  # H = A + diag(12 x^2)
    x, v = np.array([0.5, -1.0, 2.0]), np.array([1.0, 2.0, -1.0])
    hvp = sx.grad(lambda x: (sx.grad(f)(x) * sx.Tensor(v)).sum())(sx.Tensor(x))
    np.testing.assert_allclose(hvp.asnumpy(), (a + np.diag(12 * x ** 2)) @ v)


def test_grad_of_grad_with_weights_gradient_penalty():
    """Outer gradient w.r.t. a Parameter of the squared input-gradient norm (WGAN-GP)."""
    w = sx.Parameter(sx.Tensor(np.array([0.5, -1.5])), name="w")
    critic = lambda x: (ops.tanh(w * x)).sum()
    penalty = lambda x: (sx.grad(critic)(x) ** 2).sum()
    x = np.array([0.2, 0.7])
    got = sx.grad(penalty, None, w)(sx.Tensor(x)).asnumpy()

    def penalty_of_w(wv):
        w.set_data(wv.asnumpy(), slice_shape=False)
        return penalty(sx.Tensor(x))
    old = w.asnumpy().copy()
    want = numeric_grad(penalty_of_w, old)
    w.set_data(old)
    np.testing.assert_allclose(got, want, rtol=1e-5)


def test_inner_grad_with_respect_to_an_intermediate_value():
    # d/dx [ d/dy (y^2 * x) at y = x^2 ] = d/dx [2 x^3] = 6 x^2
    f = lambda x: sx.grad(lambda y: (y * y * x).sum())(x * x).sum()
    x = sx.Tensor(np.array([0.5, 2.0]))
    np.testing.assert_allclose(sx.grad(f)(x).asnumpy(), 6 * x.asnumpy() ** 2)


def test_nested_value_and_grad_value_is_differentiable():
    f = lambda x: sx.value_and_grad(lambda y: (y ** 3).sum())(x)[0]
    x = sx.Tensor(np.array([1.0, 2.0]))
    np.testing.assert_allclose(sx.grad(f)(x).asnumpy(), 3 * x.asnumpy() ** 2)


def test_inner_grad_that_closes_over_the_outer_input():
    # inner: d/dy (x*y)^2 = 2 x^2 y; at y=1 -> 2 x^2; outer d/dx sum(2 x^2) = 4x
    def f(x):
        return sx.grad(lambda y: ((x * y) ** 2).sum())(sx.Tensor(np.ones(2))).sum()
    x = sx.Tensor(np.array([1.5, -0.5]))
    np.testing.assert_allclose(sx.grad(f)(x).asnumpy(), 4 * x.asnumpy())


def test_first_order_results_under_no_outer_grad_carry_no_history():
    g = sx.grad(lambda x: (x ** 3).sum())(sx.Tensor([1.0, 2.0]))
    assert g._node is None


def test_inner_and_outer_grad_with_respect_to_the_same_parameter():
    w = sx.Parameter(sx.Tensor(np.array([0.5, -2.0])), name="w")
    x = sx.Tensor(np.array([1.0, 3.0]))
    inner = sx.grad(lambda x: (w ** 3 * x).sum(), None, w)           # 3 w^2 x
    outer = sx.grad(lambda x: inner(x).sum(), None, w)(x)             # 6 w x
    np.testing.assert_allclose(outer.asnumpy(), 6 * w.asnumpy() * x.asnumpy())
    gx, gw = sx.grad(lambda x: inner(x).sum(), 0, w)(x)
    np.testing.assert_allclose(gx.asnumpy(), 3 * w.asnumpy() ** 2)
    assert w._node is None
