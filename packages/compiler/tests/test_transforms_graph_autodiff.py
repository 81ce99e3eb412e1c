"""Reverse mode as IR -> IR: grad/vjp/value_and_grad graphs verify and agree with eager."""
import numpy as np
import pytest

from sporeling.compiler import ops
from sporeling.compiler.autodiff import grad, value_and_grad, vjp
from sporeling.compiler.ir import evaluate, make_graph, verify
from sporeling.compiler.pipeline import compile_graph
from sporeling.compiler.transforms import grad_graph, value_and_grad_graph, vjp_graph
from sporeling.core import ShapeError, SporelingError

rng = np.random.default_rng(0)
X, Y = rng.standard_normal((6, 4)), rng.integers(0, 3, 6)
W1, B1, W2 = rng.standard_normal((4, 5)), rng.standard_normal(5), rng.standard_normal((5, 3))


def loss(w1, b1, w2, x, y):
    h = ops.tanh(ops.add(ops.matmul(x, w1), b1))
    return ops.cross_entropy(ops.matmul(h, w2), y)


ARGS = (W1, B1, W2, X, Y)


def close(a, b):
    np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


def test_grad_graph_matches_eager_grad():
    g = grad_graph(make_graph(loss, *ARGS), argnums=(0, 1, 2))
    verify(g)
    assert len(g.inputs) == 5 and len(g.outputs) == 3
    for got, want in zip(compile_graph(g)(*ARGS), grad(loss, argnums=(0, 1, 2))(*ARGS)):
        close(got, want)
    single = grad_graph(make_graph(loss, *ARGS), argnums=1)
    close(evaluate(single, *ARGS)[0], grad(loss, argnums=1)(*ARGS))


def test_value_and_grad_graph_is_one_graph_with_aux():
    def with_aux(w1, b1, w2, x, y):
        return loss(w1, b1, w2, x, y), ops.argmax(ops.matmul(x, w1), axis=1)

    g = value_and_grad_graph(make_graph(with_aux, *ARGS), argnums=(0, 2), has_aux=True)
    verify(g)
    value, aux, g0, g2 = evaluate(g, *ARGS)
    want_value, want_grads = value_and_grad(loss, argnums=(0, 2))(*ARGS)
    close(value, want_value)
    np.testing.assert_array_equal(aux, np.argmax(X @ W1, axis=1))
    close(g0, want_grads[0])
    close(g2, want_grads[1])
    counts = g.primitive_counts()
    assert counts["matmul"] >= 4  # forward and backward products in the same graph
    only_grads = grad_graph(make_graph(with_aux, *ARGS), argnums=0, has_aux=True)
    got_grad, got_aux = evaluate(only_grads, *ARGS)
    close(got_grad, want_grads[0])
    np.testing.assert_array_equal(got_aux, aux)


def test_vjp_graph_matches_eager_vjp():
    def f(w1, x):
        return ops.softmax(ops.matmul(x, w1)), ops.sum(ops.square(w1))

    g = vjp_graph(make_graph(f, W1, X))
    verify(g)
    ct = (rng.standard_normal((6, 5)), np.array(0.5))
    out0, out1, gw, gx = evaluate(g, W1, X, *ct)
    want_out, pullback = vjp(f, W1, X)
    want_gw, want_gx = pullback(ct)
    close(out0, want_out[0])
    close(out1, want_out[1])
    close(gw, want_gw)
    close(gx, want_gx)


def test_vjp_graph_gives_zeros_to_integer_inputs():
    g = vjp_graph(make_graph(lambda x, i: ops.gather(x, i), np.ones(4), np.array([0, 2])))
    verify(g)
    _, gx, gi = evaluate(g, np.arange(4.0), np.array([0, 2]), np.array([1.0, 2.0]))
    close(gx, [1.0, 0.0, 2.0, 0.0])
    assert gi.dtype.kind == "i" and not gi.any()


def test_grad_of_grad_graph():
    def f(x):
        return ops.sum(ops.mul(ops.sin(x), ops.exp(x)))

    x = np.array(0.7)
    g2 = grad_graph(grad_graph(make_graph(f, x)))
    verify(g2)
    close(evaluate(g2, x)[0], grad(grad(f))(x))
    close(evaluate(g2, x)[0], 2 * np.cos(x) * np.exp(x))


def test_grad_graph_errors():
    g = make_graph(lambda x: ops.exp(x), np.ones(3))
    with pytest.raises(ShapeError, match="scalar"):
        grad_graph(g)
    with pytest.raises(SporelingError, match="single output"):
        grad_graph(make_graph(lambda x: (ops.sum(x), x), np.ones(3)))
    with pytest.raises(SporelingError, match="non-float"):
        grad_graph(make_graph(lambda i: ops.sum(i), np.array([1, 2])))
