"""ms.ops differential functions (grad, value_and_grad, get_grad, vjp, jvp, jacfwd, jacrev,
vmap) and gradient clipping against closed-form derivatives and NumPy."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.ms import ops

from math_refs import T, assert_matches, in_graph

X = np.array([[1.0, 2.0], [3.0, -4.0]], np.float32)
Y = np.array([[0.5, -1.0], [2.0, 1.5]], np.float32)


def f(x, y):
    return ops.sum(ops.mul(ops.mul(x, x), y))       # d/dx = 2xy, d/dy = x^2


def test_grad_positions():
    assert_matches(ops.grad(f)(T(X), T(Y)), 2 * X * Y)
    assert_matches(ops.grad(f, (0, 1))(T(X), T(Y)), (2 * X * Y, X * X))


def test_value_and_grad_with_weights_and_aux():
    w = sx.Parameter(np.array([2.0, -1.0], np.float32), name="w")

    def loss(x):
        out = ops.matmul(x, w)
        return ops.sum(ops.square(out)), out

    value, (gx, gw) = ops.value_and_grad(loss, 0, [w], has_aux=True)(T(X))
    out = X @ np.array([2.0, -1.0])
    assert_matches(value[0], np.sum(out ** 2))
    assert_matches(value[1], out)
    assert_matches(gx, 2 * out[:, None] * np.array([2.0, -1.0])[None])
    assert_matches(gw[0], 2 * X.T @ out)


def test_return_ids_and_get_grad():
    w = sx.Parameter(np.array([1.5, 0.5], np.float32), name="weight")

    def loss(x, y):
        return ops.sum(ops.mul(ops.matmul(x, w), y[:, 0]))

    grads = ops.grad(loss, (0, 1), [w], return_ids=True)(T(X), T(Y))
    assert grads[0][0][0] == 0 and grads[0][1][0] == 1 and grads[1][0][0] == "weight"
    assert_matches(ops.get_grad(grads, 0), Y[:, [0]] * np.array([1.5, 0.5])[None])
    assert_matches(ops.get_grad(grads, w), X.T @ Y[:, 0])
    with pytest.raises(Exception, match="no gradient for this identifier"):
        ops.get_grad(grads, 5)


def test_vjp_matches_the_transposed_jacobian():
    v = np.array([[1.0, 0.0], [2.0, -1.0]], np.float32)
    out, vjp_fn = ops.vjp(lambda x, y: ops.mul(ops.mul(x, x), y), T(X), T(Y))
    assert_matches(out, X * X * Y)
    gx, gy = vjp_fn(T(v))
    assert_matches(gx, 2 * X * Y * v)
    assert_matches(gy, X * X * v)


def test_vjp_with_weights():
    w = sx.Parameter(np.array([2.0, -1.0], np.float32), name="w")
    v = np.array([1.0, 3.0], np.float32)
    out, vjp_fn = ops.vjp(lambda x: ops.matmul(x, w), T(X), weights=[w])
    (gx,), (gw,) = vjp_fn(T(v))
    assert_matches(out, X @ np.array([2.0, -1.0]))
    assert_matches(gx, np.outer(v, [2.0, -1.0]))
    assert_matches(gw, X.T @ v)


def test_vjp_has_aux():
    out, vjp_fn, aux = ops.vjp(lambda x: (ops.sin(x), ops.cos(x)), T(X), has_aux=True)
    assert_matches(aux, np.cos(X))
    assert_matches(vjp_fn(T(np.ones_like(X)))[0], np.cos(X))


def test_jvp_is_the_directional_derivative():
    v = np.array([[1.0, 0.5], [0.0, 2.0]], np.float32)
    out, tangent = ops.jvp(lambda x: ops.mul(ops.sin(x), x), T(X), T(v))
    assert_matches(out, np.sin(X) * X)
    assert_matches(tangent, (np.cos(X) * X + np.sin(X)) * v, rtol=1e-5)
    out, tangent = ops.jvp(lambda x, y: (ops.mul(x, y), ops.add(x, y)), (T(X), T(Y)),
                           (T(v), T(np.ones_like(Y))))
    assert_matches(tangent, (v * Y + X, v + 1))


def test_jacrev_and_jacfwd_give_the_jacobian():
    a = np.array([[1.0, 2.0, 0.5], [-1.0, 0.0, 3.0]], np.float32)

    def fn(x):
        return ops.matmul(T(a), ops.mul(x, x))       # J = a * 2x (columns scaled)

    x = np.array([0.5, -1.0, 2.0], np.float32)
    expected = a * 2 * x[None]
    assert_matches(ops.jacrev(fn)(T(x)), expected)
    assert_matches(ops.jacfwd(fn)(T(x)), expected)
    jac_y = ops.jacrev(lambda p, q: ops.mul(p, q), grad_position=(0, 1))(T(x), T(2 * x))
    assert_matches(jac_y, (np.diag(2 * x), np.diag(x)))
    jac, aux = ops.jacfwd(lambda p: (ops.exp(p), ops.sum(p)), has_aux=True)(T(x))
    assert_matches(jac, np.diag(np.exp(x)), rtol=1e-5)
    assert_matches(aux, x.sum())


def test_vmap_maps_over_the_axis():
    batch = np.arange(12, dtype=np.float32).reshape(3, 4)
    w = np.array([1.0, -1.0, 2.0, 0.5], np.float32)
    out = ops.vmap(lambda row, v: ops.sum(ops.mul(row, v)), in_axes=(0, None))(T(batch), T(w))
    assert_matches(out, batch @ w)
    cols = ops.vmap(lambda col: ops.cumsum(col, 0), in_axes=1, out_axes=1)(T(batch))
    assert_matches(cols, np.cumsum(batch, 0))


def test_grad_inside_graph_mode():
    compiled = in_graph(lambda x, y: ops.grad(f, (0, 1))(x, y), T(X), T(Y))
    assert_matches(compiled, (2 * X * Y, X * X))


# --- gradient clipping -------------------------------------------------------------------

G1 = np.array([3.0, -4.0], np.float32)
G2 = np.array([[12.0]], np.float32)


def test_clip_by_value_on_tensors_and_tuples():
    assert_matches(ops.clip_by_value(T(X), -1.0, 2.0), np.clip(X, -1, 2))
    clipped = ops.clip_by_value((T(G1), T(G2)), clip_value_max=3.5)
    assert isinstance(clipped, tuple)
    assert_matches(clipped, (np.minimum(G1, 3.5), np.minimum(G2, 3.5)))


def test_clip_by_norm_scales_the_joint_norm():
    total = np.sqrt(9 + 16 + 144)      # 13
    out = ops.clip_by_norm([T(G1), T(G2)], 6.5)
    assert_matches(tuple(out), (G1 * 6.5 / (total + 1e-6), G2 * 6.5 / (total + 1e-6)))
    assert_matches(ops.clip_by_norm(T(G1), 10.0), G1)          # below the bound: unchanged
    inf = ops.clip_by_norm(T(G1), 2.0, norm_type="inf")
    assert_matches(inf, G1 * 2.0 / (4.0 + 1e-6))
    with pytest.raises(Exception, match="not finite"):
        ops.clip_by_norm(T(np.array([np.inf], np.float32)), 1.0, error_if_nonfinite=True)


def test_clip_by_global_norm():
    out = ops.clip_by_global_norm((T(G1), T(G2)), 1.0)
    assert_matches(out, (G1 / 13.0, G2 / 13.0))
    kept = ops.clip_by_global_norm((T(G1),), 10.0)
    assert_matches(kept, (G1,))


def test_clipping_in_graph_mode():
    def step(a, b):
        return ops.clip_by_global_norm((a, b), 2.0)
    for eager, compiled in zip(step(T(G1), T(G2)), in_graph(step, T(G1), T(G2))):
        assert_matches(compiled, eager.asnumpy())
