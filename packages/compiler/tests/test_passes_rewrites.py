"""Each simplifying pass on small graphs: primitive counts before/after, same numbers."""
import numpy as np
import pytest

from sporeling.compiler import ops
from sporeling.compiler.ir import Const, IRError, evaluate, make_graph
from sporeling.compiler.passes import (PassContext, PassRegistry, freeze_inputs,
                                       optimize, rewrite_pass)
from sporeling.compiler.passes.cse import eliminate_common_subexpressions
from sporeling.compiler.passes.dce import eliminate_dead_code
from sporeling.compiler.passes.fold import MAX_FOLDED_SIZE, fold_constants
from sporeling.compiler.passes.infer import infer_types
from sporeling.compiler.passes.simplify import SIMPLIFY
from sporeling.core import set_seed

rng = np.random.default_rng(0)
X = rng.standard_normal((2, 3)).astype(np.float32)
Y = rng.standard_normal((2, 3)).astype(np.float32)


def simplified(fn, *args, only=("infer_types", "simplify", "dce")):
    g = make_graph(fn, *args)
    out = optimize(g, "O1", only=only, verify_each=True)
    for a, b in zip(evaluate(g, *args), evaluate(out, *args)):
        np.testing.assert_array_equal(a, b)
    return g, out


def counts(g):
    return g.primitive_counts()


def test_dce_keeps_what_outputs_need_only():
    g = make_graph(lambda x: (ops.exp(x), ops.log(x), ops.sin(x))[::2], X)
    out = eliminate_dead_code(g, PassContext())
    assert counts(g) == {"exp": 1, "log": 1, "sin": 1} and counts(out) == {"exp": 1, "sin": 1}
    assert eliminate_dead_code(out, PassContext()) is out  # nothing left to do


def test_cse_merges_equal_computations_but_not_random_draws():
    def f(x):
        a, b = ops.mul(ops.exp(x), 2.0), ops.mul(ops.exp(x), 2.0)
        # two equal-looking rng_seed equations (no operands): still two draws
        noise = ops.add(ops.bernoulli(ops.sigmoid(x)), ops.bernoulli(ops.sigmoid(x)))
        drop = ops.add(ops.nn.dropout(x, 0.5, seed=3), ops.nn.dropout(x, 0.5, seed=3))
        return ops.add(ops.add(a, b), ops.add(noise, drop))
    g = make_graph(f, X)
    out = optimize(g, "O1", only={"cse", "dce"})
    assert counts(g)["exp"] == 2 and counts(out)["exp"] == 1 and counts(out)["mul"] == 1
    assert counts(out)["bernoulli"] == 2 and counts(out)["dropout"] == 2
    assert counts(out)["sigmoid"] == 1 and counts(out)["rng_seed"] == 2
    set_seed(1)
    before = evaluate(g, X)[0]
    set_seed(1)
    np.testing.assert_array_equal(before, evaluate(out, X)[0])


def test_cse_tells_parameters_and_constants_apart():
    g = make_graph(lambda x: ops.add(ops.sum(x, 0, keepdims=True),
                                     ops.sum(x, 1, keepdims=True)), X)
    assert eliminate_common_subexpressions(g, PassContext()) is g
    g = make_graph(lambda x: ops.add(ops.mul(x, 2.0), ops.mul(x, 3.0)), X)
    assert eliminate_common_subexpressions(g, PassContext()) is g


def test_fold_computes_small_constant_equations():
    w = np.arange(1, 4, dtype=np.float32)
    g = make_graph(lambda x, c: ops.mul(x, ops.exp(ops.sqrt(c))), X, w)
    frozen = freeze_inputs(g, {1: w})
    out = fold_constants(frozen, PassContext())
    out = eliminate_dead_code(out, PassContext())
    assert counts(frozen) == {"sqrt": 1, "exp": 1, "mul": 1} and counts(out) == {"mul": 1}
    np.testing.assert_allclose(evaluate(out, X)[0], evaluate(g, X, w)[0], rtol=1e-6)


def test_fold_leaves_random_and_large_results():
    big = (MAX_FOLDED_SIZE + 1,)
    g = make_graph(lambda x, c: (ops.add(x, ops.nn.dropout(c, 0.5, seed=1)),
                                 ops.exp(ops.broadcast_to(ops.sum(c), big))), X, Y)
    frozen = freeze_inputs(g, {1: Y})
    out = fold_constants(frozen, PassContext())
    assert counts(out) == {"dropout": 1, "add": 1, "exp": 1, "broadcast_to": 1}
    assert counts(frozen)["sum"] == 1  # folded: small


@pytest.mark.parametrize("fn, before, after", [
    (lambda x: ops.add(ops.mul(x, 1.0), 0.0), {"mul": 1, "add": 1}, {}),
    (lambda x: ops.div(ops.sub(ops.add(0.0, ops.mul(1.0, x)), 0.0), 1.0),
     {"mul": 1, "add": 1, "sub": 1, "div": 1}, {}),
    (lambda x: ops.neg(ops.neg(ops.exp(x))), {"neg": 2, "exp": 1}, {"exp": 1}),
    (lambda x: ops.transpose(ops.transpose(x)), {"transpose": 2}, {}),
    (lambda x: ops.permute(ops.permute(ops.reshape(x, (1, 2, 3)), 2, 0, 1), 2, 0, 1),
     {"reshape": 1, "transpose": 2}, {"reshape": 1, "transpose": 1}),
    (lambda x: ops.reshape(ops.reshape(ops.reshape(x, (3, 2)), (6,)), (2, 3)),
     {"reshape": 3}, {}),
    (lambda x: ops.reshape(ops.reshape(x, (3, 2)), (6,)), {"reshape": 2}, {"reshape": 1}),
    (lambda x: ops.cast(ops.cast(x, "float64"), "float32"), {"cast": 2}, {}),
    (lambda x: ops.cast(ops.cast(x, "float64"), "float16"), {"cast": 2}, {"cast": 1}),
    (lambda x: ops.broadcast_to(ops.broadcast_to(ops.reshape(x, (1, 2, 3)), (2, 2, 3)),
                                (4, 2, 2, 3)),
     {"reshape": 1, "broadcast_to": 2}, {"reshape": 1, "broadcast_to": 1}),
])
def test_algebraic_identities(fn, before, after):
    g, out = simplified(fn, X)
    assert counts(g) == before and counts(out) == after


def test_identities_that_would_change_the_type_stay():
    # x * ones((4, 2, 3)) broadcasts x: the product is not x
    g, out = simplified(lambda x: ops.mul(x, np.ones((4, 2, 3), np.float32)), X)
    assert counts(out) == {"mul": 1}
    # a lossy first cast must stay: float32 -> int32 -> float32 truncates
    g, out = simplified(lambda x: ops.cast(ops.cast(x, "int32"), "float32"), X)
    assert counts(out) == {"cast": 2}


def test_rewrite_tables_make_passes():
    table = {"exp": lambda eq, rw: rw.bind("exp", rw.bind("mul", eq.inputs[0], Const(
        np.float32(1))))}
    p = rewrite_pass("exp-times-one", table, stage="canonicalize", order=5)
    registry = PassRegistry()
    for q in (p, SIMPLIFY):
        registry.add_pass(q)
    g = make_graph(lambda x: ops.exp(x), X)
    mid = p.run(g, PassContext())
    assert counts(mid) == {"mul": 1, "exp": 1}
    assert counts(optimize(g, "O1", passes=registry)) == {"exp": 1}


def test_infer_types_rederives_avals_and_rejects_bad_rewrites():
    g = make_graph(lambda x, y: ops.add(ops.exp(x), y), X, Y)
    assert infer_types(g, PassContext()) is g
    # a rewrite that swaps in a value of another shape is refused where it happens
    bad = rewrite_pass("bad", {"exp": lambda eq, rw: Const(np.zeros(3, np.float32))})
    with pytest.raises(IRError, match="type"):
        bad.run(g, PassContext())


def test_infer_types_retypes_after_operands_change():
    g = make_graph(lambda x: ops.exp(x), X)
    # swap the operand for a float64 Const: exp's output must become float64
    (eq,) = g.equations
    eq.inputs[0] = Const(X.astype(np.float64))
    ctx = PassContext()
    out = infer_types(g, ctx)
    assert out.outputs[0].aval.dtype == np.float64 and ctx.stats["infer_types.retyped"] == 1


def test_passes_reach_inside_sub_graphs():
    inner = make_graph(lambda x: ops.neg(ops.neg(ops.exp(x))), X)
    from sporeling.compiler import Primitive
    from sporeling.compiler.passes import map_subgraphs
    fake = Primitive("passes_test_call")
    fake.def_abstract_eval(lambda x, *, body: body.out_avals[0])
    from sporeling.compiler.ir import Equation, Graph, Var
    x = Var(inner.inputs[0].aval)
    y = Var(inner.outputs[0].aval)
    outer = Graph([x], [Equation(fake, [x], [y], {"body": inner})], [y], "outer")
    out = optimize(outer, "O1", only={"simplify", "dce"}, verify_each=True)
    body = out.equations[0].params["body"]
    assert counts(body) == {"exp": 1} and counts(inner) == {"neg": 2, "exp": 1}
    assert map_subgraphs({"a": 1}, lambda g: g) == {"a": 1}


def test_a_transposed_product_is_computed_in_its_final_layout():
    from sporeling.compiler import ops as O
    from sporeling.compiler.ir import evaluate, make_graph
    from sporeling.compiler.passes import optimize

    a, b = np.random.rand(5, 3).astype(np.float32), np.random.rand(5, 4).astype(np.float32)
    g = make_graph(lambda a, b: O.transpose(O.matmul(O.transpose(a), b)), a, b)
    out = optimize(g)
    assert out.primitive_counts() == {"matmul": 1, "transpose": 1}  # b.T @ a, no copy after
    (result,) = evaluate(out, a, b)
    np.testing.assert_allclose(result, (a.T @ b).T, rtol=1e-6)
    assert result.flags["C_CONTIGUOUS"]
    shared = make_graph(lambda a, b: (O.transpose(O.matmul(a, b)), O.matmul(a, b)),
                        a.T.copy(), b)  # the product is read twice: leave it
    assert optimize(shared).primitive_counts()["matmul"] == 1
