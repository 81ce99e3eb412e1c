"""Elementwise fusion: the fused kernel against the unfused graph, grad through fused graphs,
and recomputation."""
import numpy as np
import pytest

from sporeling.compiler import ops
from sporeling.compiler.autodiff import grad, value_and_grad
from sporeling.compiler.ir import evaluate, make_graph
from sporeling.compiler.passes import (PassContext, fused_call, optimize,
                                       values_live_across)
from sporeling.compiler.passes.fusion import fuse_elementwise
from sporeling.compiler.passes.recompute import MIN_ELEMENTS, recompute
from sporeling.compiler.testing import check_grads
from sporeling.core import context

rng = np.random.default_rng(0)


def gelu_ish(x, b):
    return ops.mul(ops.tanh(ops.add(ops.mul(x, 0.5), b)), ops.sigmoid(x))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("fn, shapes", [
    (gelu_ish, [(4, 5), (5,)]),
    (lambda x, y: ops.where(ops.greater(x, 0.0), ops.exp(ops.neg(x)), ops.square(y)),
     [(3, 4), (3, 4)]),
    (lambda x, y: ops.div(ops.sub(ops.broadcast_to(y, (2, 3, 4)), x), ops.add(ops.abs(x), 1.0)),
     [(2, 3, 4), (3, 1)]),
    (lambda x, y: ops.clip(ops.maximum(ops.cast(x, "float16"), 0.5), max=2.0),
     [(6,), (6,)]),
])
def test_fused_kernel_matches_the_unfused_graph(fn, shapes, dtype):
    args = [rng.standard_normal(s).astype(dtype) for s in shapes]
    g = make_graph(fn, *args)
    out = fuse_elementwise(g, PassContext())
    fused = out.primitive_counts().get("fused_elementwise", 0)
    assert fused >= 1 and len(out.equations) < len(g.equations)
    for a, b in zip(evaluate(g, *args), evaluate(out, *args)):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)


def test_shared_values_and_outputs_are_not_absorbed():
    def f(x):
        e = ops.exp(x)                           # used twice: materialised
        return ops.add(ops.mul(e, 2.0), ops.sin(e)), ops.neg(ops.log1p(e))
    x = rng.random((3, 4)).astype(np.float32)
    g = make_graph(f, x)
    out = fuse_elementwise(g, PassContext())
    assert out.primitive_counts() == {"exp": 1, "fused_elementwise": 2}
    for a, b in zip(evaluate(g, x), evaluate(out, x)):
        np.testing.assert_allclose(a, b, rtol=1e-6)
    # a graph output inside a chain stays an equation of its own
    g = make_graph(lambda x: (ops.exp(x), ops.neg(ops.exp(x))), x)
    assert "exp" in fuse_elementwise(g, PassContext()).primitive_counts()


def _shared_chain(x):
    t = ops.tanh(ops.mul(x, 1.5))                 # read by two chains
    e = ops.exp(ops.mul(t, x))                    # read by two chains
    return ops.sum(ops.add(ops.mul(e, t), ops.sub(e, ops.sigmoid(x))))


def test_a_backend_that_recomputes_gets_one_chain_per_output(monkeypatch):
    from sporeling.compiler.passes import fusion
    x = rng.random((3, 4)).astype(np.float32)
    g = make_graph(value_and_grad(_shared_chain), x)
    stored = fuse_elementwise(g, PassContext()).primitive_counts()
    assert stored["fused_elementwise"] > 2        # NumPy's kernel: shared values stored
    monkeypatch.setattr(fusion, "_recompute_rule", lambda ctx: lambda name: True)
    out = fuse_elementwise(g, PassContext())
    counts = out.primitive_counts()
    # the forward chain feeds sum (the value), the backward chain is the gradient
    assert counts["fused_elementwise"] == 2, counts
    for a, b in zip(evaluate(g, x), evaluate(out, x)):
        np.testing.assert_allclose(a, b, rtol=1e-6)
    # a value read at another size (broadcast) or by a non-fusible op is still stored
    w = rng.random((4, 4)).astype(np.float32)

    def f(x, b):
        e, n = ops.exp(b), ops.neg(x)
        return ops.add(ops.mul(e, x), ops.sub(x, e)), ops.add(ops.matmul(n, w), n)
    g = make_graph(f, x, rng.random(4).astype(np.float32))
    # (each stored as its own one-node chain: the backend generates it in one pass)
    alone = [eq.params["expr"] for eq in fuse_elementwise(g, PassContext()).equations
             if eq.prim.name == "fused_elementwise" and len(eq.params["expr"]) == 1]
    assert {"exp", "neg"} <= {expr[0][0] for expr in alone}
    # what the backend does not generate is not recomputed
    monkeypatch.setattr(fusion, "_recompute_rule", lambda ctx: lambda name: name != "tanh")
    assert fuse_elementwise(make_graph(value_and_grad(_shared_chain), x), PassContext()
                            ).primitive_counts()["fused_elementwise"] > 2


def test_a_lone_equation_is_a_chain_only_where_the_backend_generates_it(monkeypatch):
    from sporeling.compiler.passes import fusion
    g = make_graph(lambda x: ops.matmul(ops.relu(x), x), np.ones((3, 3), np.float32))
    assert "relu" in fuse_elementwise(g, PassContext()).primitive_counts()   # NumPy's
    monkeypatch.setattr(fusion, "_recompute_rule", lambda ctx: lambda name: name == "relu")
    assert "relu" not in fuse_elementwise(g, PassContext()).primitive_counts()
    monkeypatch.setattr(fusion, "_recompute_rule", lambda ctx: lambda name: False)
    assert "relu" in fuse_elementwise(g, PassContext()).primitive_counts()


def test_non_elementwise_equations_split_chains():
    w = rng.standard_normal((4, 4)).astype(np.float32)
    g = make_graph(lambda x: ops.relu(ops.add(ops.matmul(ops.exp(ops.neg(x)), w), 1.0)),
                   np.ones((2, 4), np.float32))
    assert fuse_elementwise(g, PassContext()).primitive_counts() == {
        "fused_elementwise": 2, "matmul": 1}


def test_grad_through_a_fused_graph():
    x = rng.standard_normal((4, 5))
    b = rng.standard_normal(5)
    fused = optimize(make_graph(gelu_ish, x, b), "O1")
    assert fused.primitive_counts() == {"fused_elementwise": 1}

    def via_graph(x, b):
        return evaluate(fused, x, b)[0]
    check_grads(via_graph, [x, b], order=2)
    # the IR -> IR grad of the fused graph, optimised again, agrees with the plain ops
    loss = lambda x, b: ops.sum(via_graph(x, b))  # noqa: E731
    grad_graph = make_graph(grad(loss, argnums=(0, 1)), x, b)
    optimized = optimize(grad_graph, "O1")
    assert "fused_elementwise" in optimized.primitive_counts()
    expected = grad(lambda x, b: ops.sum(gelu_ish(x, b)), argnums=(0, 1))(x, b)
    for got, want in zip(evaluate(optimized, x, b), expected):
        np.testing.assert_allclose(got, want, rtol=1e-10)


def test_fused_call_grad_of_grad_through_nested_fusion():
    f64 = np.dtype("float64")
    inner = (("exp", (("in", 0),), (), (3,), f64),
             ("mul", (("node", 0), ("const", 2.0, f64)), (), (3,), f64))
    g = make_graph(lambda x: ops.sin(fused_call(inner, x)), np.ones(3))
    out = fuse_elementwise(g, PassContext())  # the existing fused equation is absorbed
    (eq,) = out.equations
    assert [n[0] for n in eq.params["expr"]] == ["exp", "mul", "sin"]
    x = rng.standard_normal(3)
    np.testing.assert_allclose(evaluate(out, x)[0], np.sin(2 * np.exp(x)))
    check_grads(lambda x: evaluate(out, x)[0], [x], order=2)


def _train_graph():
    n = int(np.sqrt(MIN_ELEMENTS)) * 2
    x = rng.standard_normal((n, n)).astype(np.float32)
    w = rng.standard_normal((n, n)).astype(np.float32) * 0.1

    def loss(w, x):
        h = ops.mul(ops.exp(ops.mul(x, 0.1)), x)  # cheap and large: the weight grad reads it
        for _ in range(3):
            h = ops.tanh(ops.matmul(h, w))
        return ops.sum(h)
    g = make_graph(value_and_grad(loss), w, x)
    return g, (w, x)


def _boundary(graph):
    """The equation that finishes the loss: the forward/backward boundary."""
    loss = graph.outputs[0]
    return next(i for i, eq in enumerate(graph.equations) if loss in eq.outputs)


def test_recompute_keeps_results_and_shortens_live_ranges():
    g, args = _train_graph()
    base = optimize(g, "O1")
    with context(recompute=True):
        ctx = PassContext()
        rematerialised = optimize(g, "O1", ctx=ctx)
    assert ctx.stats["recompute.values"] >= 1
    for a, b in zip(evaluate(base, *args), evaluate(rematerialised, *args)):
        np.testing.assert_array_equal(a, b)  # bit-identical
    big = MIN_ELEMENTS
    live_before = values_live_across(base, _boundary(base), big)
    live_after = values_live_across(rematerialised, _boundary(rematerialised), big)
    assert len(live_after) < len(live_before)


def test_recompute_is_off_by_default_and_leaves_small_values():
    g, _ = _train_graph()
    ctx = PassContext()
    optimize(g, "O1", ctx=ctx)
    assert "recompute.values" not in ctx.stats
    small = make_graph(lambda x: ops.mul(ops.exp(x), ops.sum(ops.exp(x))), np.ones(4))
    assert recompute(small, PassContext()) is small
