"""Every node kind the fused-chain generator knows, against NumPy's kernels: one chain per
dtype in which every node feeds the result (so a wrong template changes it)."""
import numpy as np
import pytest

from sporeling.numba_backend import fused
from sporeling.runtime import get_backend

_UNARY = ["neg", "abs", "square", "sqrt", "rsqrt", "reciprocal", "exp", "expm1", "log",
          "log1p", "sin", "cos", "tanh", "relu", "sigmoid", "silu", "broadcast_to"]
_BINARY = ["add", "sub", "mul", "div", "maximum", "minimum", "pow", "relu_grad", "tanh_grad",
           "sigmoid_grad"]
_WITH_PARAMS = [("pow_scalar", {"exponent": 3}), ("pow_scalar", {"exponent": 2}),
                ("clip_scalar", {"min": 0.7, "max": 1.5}), ("clip_scalar", {"max": 1.1}),
                ("leaky_relu", {"alpha": 0.2}), ("rsqrt_eps", {"eps": 1e-3})]


def _chain(dtype, shape):
    nodes = []

    def node(name, operands, params=()):
        nodes.append((name, operands, tuple(sorted(dict(params).items())), shape, dtype))
        return ("node", len(nodes) - 1)

    a, b, cond = ("in", 0), ("in", 1), ("in", 2)
    terms = [node(n, (a,), {"shape": shape} if n == "broadcast_to" else ()) for n in _UNARY]
    terms += [node(n, (a, b)) for n in _BINARY]
    terms += [node(n, (b,), p) for n, p in _WITH_PARAMS]
    terms.append(node("where", (cond, a, b)))
    terms.append(node("sub", (a, ("const", 0.25, dtype))))
    terms.append(node("leaky_relu", (terms[-1],), {"alpha": 0.5}))  # negative inputs too
    acc = terms[0]
    for k, t in enumerate(terms[1:], 1):  # distinct weights: no two errors cancel
        acc = node("add", (acc, node("mul", (t, ("const", 1.0 + k / 64, dtype)))))
    return tuple(nodes)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_every_generated_node_agrees_with_numpys_kernels(dtype):
    assert {n for n in _UNARY + _BINARY} | {n for n, _ in _WITH_PARAMS} | {"where"} \
        == set(fused.SCALAR) - {"cast"} | set(fused.WITH_PARAMS)
    rng = np.random.default_rng(0)
    shape = (3, 50)
    a = rng.uniform(0.5, 2.0, shape).astype(dtype)   # inside every node's domain
    b = rng.uniform(0.5, 2.0, shape).astype(dtype)
    cond = rng.random(shape) > 0.5
    expr = _chain(dtype, shape)
    got = fused.fused_elementwise(get_backend("numba"), a, b, cond, expr=expr)
    want = get_backend("numpy").run("fused_elementwise", a, b, cond, expr=expr)
    np.testing.assert_allclose(got, want, rtol=1e-5 if dtype == "float32" else 1e-12)


def test_cast_nodes_convert_like_numpy():
    x = np.array([-1.5, 0.0, 2.7], np.float32)
    expr = (("cast", (("in", 0),), (("dtype", np.dtype("int32")),), (3,), "int32"),
            ("cast", (("node", 0),), (("dtype", np.dtype("float64")),), (3,), "float64"))
    got = fused.fused_elementwise(get_backend("numba"), x, expr=expr)
    assert got.dtype == np.float64
    np.testing.assert_array_equal(got, get_backend("numpy").run("fused_elementwise", x,
                                                                expr=expr))
