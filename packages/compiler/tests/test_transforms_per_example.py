"""Per-example gradients, ``vmap(grad(loss), in_axes=(None, 0, 0))``, against a loop over
the samples: an MLP (dense + relu + cross-entropy) and a small conv net (DP-SGD needs them)."""
import numpy as np

from sporeling.compiler import ops
from sporeling.compiler.autodiff import grad
from sporeling.compiler.transforms import jvp, vmap

rng = np.random.default_rng(0)


def mlp_loss(params, x, y):
    w1, b1, w2, b2 = params
    h = ops.relu(ops.add(ops.matmul(x, w1), b1))
    logits = ops.add(ops.matmul(h, w2), b2)
    return ops.cross_entropy(ops.reshape(logits, (1, -1)), ops.reshape(y, (1,)))


def conv_loss(params, x, y):
    w, b, dense = params
    h = ops.relu(ops.conv2d(ops.reshape(x, (1,) + tuple(x.shape)), w, b, padding=1))
    h = ops.max_pool2d(h, 2)
    logits = ops.matmul(ops.reshape(h, (1, -1)), dense)
    return ops.cross_entropy(logits, ops.reshape(y, (1,)))


def params_grad(loss):
    """The gradient of ``loss(params, x, y)`` with respect to the tuple ``params``."""
    def g(params, x, y):
        return grad(lambda *p: loss(p, x, y), argnums=tuple(range(len(params))))(*params)
    return g


def _check_per_example(loss, params, xs, ys):
    per_example = vmap(params_grad(loss), in_axes=(None, 0, 0))(params, xs, ys)
    for i in range(len(xs)):
        expected = params_grad(loss)(params, xs[i], ys[i])
        for got, want in zip(per_example, expected):
            np.testing.assert_allclose(got[i], want, rtol=1e-5, atol=1e-6)


def test_mlp_per_example_gradients():
    params = (rng.standard_normal((5, 8)) * 0.5, rng.standard_normal(8) * 0.1,
              rng.standard_normal((8, 3)) * 0.5, rng.standard_normal(3) * 0.1)
    xs, ys = rng.standard_normal((6, 5)), rng.integers(0, 3, 6)
    _check_per_example(mlp_loss, params, xs, ys)


def test_conv_net_per_example_gradients():
    params = (rng.standard_normal((4, 2, 3, 3)) * 0.3, rng.standard_normal(4) * 0.1,
              rng.standard_normal((4 * 3 * 3, 3)) * 0.3)
    xs, ys = rng.standard_normal((5, 2, 6, 6)), rng.integers(0, 3, 5)
    _check_per_example(conv_loss, params, xs, ys)


def test_per_example_hessian_vector_products():
    # jvp of grad under vmap: what physics-informed losses need per collocation point
    def f(x):
        return ops.sum(ops.mul(ops.sin(x), ops.square(x)))
    xs, vs = rng.standard_normal((4, 3)), rng.standard_normal((4, 3))
    hvp = vmap(lambda x, v: jvp(grad(f), (x,), (v,))[1])(xs, vs)
    for x, v, got in zip(xs, vs, hvp):
        h = np.diag(2 * np.sin(x) + 4 * x * np.cos(x) - x ** 2 * np.sin(x))
        np.testing.assert_allclose(got, h @ v, rtol=1e-10)
