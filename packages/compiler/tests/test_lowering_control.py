"""Lowering control flow into sub-programs, Python ``impl`` fallbacks, custom lowering rules,
and ``compile_graph`` running the lowered program."""
import numpy as np
import pytest

from sporeling.compiler import ops
from sporeling.compiler.core import Aval, MissingRuleError, Primitive
from sporeling.compiler.ir import evaluate, make_graph
from sporeling.compiler.lowering import lower
from sporeling.compiler.ops.control import cond, fori_loop, scan, while_loop
from sporeling.compiler.pipeline import compile_graph

from test_lowering_plan import assert_sound

X = np.linspace(-1, 1, 6).reshape(2, 3).astype(np.float32)


def check(fn, *argsets):
    graph = make_graph(fn, *argsets[0])
    lowered = lower(graph)
    assert_sound(lowered)
    for args in argsets:
        got, want = lowered(*args), evaluate(graph, *args)
        for a, b in zip(got, want):
            assert np.asarray(a).dtype == np.asarray(b).dtype
            np.testing.assert_array_equal(a, b)
    return lowered


def test_cond_runs_the_branch_sub_programs():
    def f(x, s):
        h = ops.exp(x)
        return ops.sum(cond(ops.greater(s, 0.0), lambda h: ops.mul(ops.tanh(h), 2.0),
                            lambda h: ops.neg(ops.sin(h)), h))
    lowered = check(f, (X, np.float32(1)), (X, np.float32(-1)))
    assert len(lowered.sub_programs) == 2
    assert all(s.memory["planned_values"] == 1 for s in lowered.sub_programs)


def test_a_branch_returning_its_operand_keeps_that_buffer_out_of_the_arena():
    def f(x, s):
        h = ops.exp(x)  # planned, unless the cond may hand it back as the output
        return cond(ops.greater(s, 0.0), lambda h: h, lambda h: ops.neg(h), h)
    lowered = check(f, (X, np.float32(1)))
    first = lowered(X, np.float32(1))[0]
    kept = np.array(first)
    lowered(X * 2, np.float32(1))
    np.testing.assert_array_equal(first, kept)


def test_constant_outputs_of_a_sub_program_are_fresh_arrays():
    graph = make_graph(lambda s: cond(ops.greater(s, 0.0), lambda: np.float32(1),
                                      lambda: np.float32(2)), np.float32(1))
    lowered = lower(graph)
    a, b = lowered(np.float32(1))[0], lowered(np.float32(1))[0]
    assert a == 1 and a is not b


def test_while_loop_scan_and_fori_loop():
    check(lambda x: while_loop(lambda c: ops.less(ops.sum(c), 50.0),
                               lambda c: ops.add(ops.mul(c, 1.5), 1.0), x), (X,))
    check(lambda x: scan(lambda c, r: (ops.add(c, ops.exp(r)), ops.mul(c, r)), X[0], x),
          (X,))
    check(lambda x: scan(lambda c, r: (ops.mul(c, r), ops.tanh(c)), X[0], x, reverse=True),
          (X,))
    check(lambda x: fori_loop(0, 4, lambda i, v: ops.sin(ops.add(v, 1.0)), x), (X,))


def test_nested_control_flow_nests_sub_programs():
    def f(x):
        return fori_loop(0, 3, lambda i, v: cond(ops.greater(ops.sum(v), 0.0),
                                                 lambda v: ops.mul(v, 0.5),
                                                 lambda v: ops.add(v, 1.0), v), x)
    lowered = check(f, (X,), (-X,))
    (body,) = lowered.sub_programs
    assert len(body.sub_programs) == 2


impl_only = Primitive("lowering_test_impl_only")
impl_only.def_abstract_eval(lambda x: Aval(x.shape, x.dtype))
impl_only.def_impl(lambda x: np.flip(x) + 1)

no_kernel = Primitive("lowering_test_no_kernel")
no_kernel.def_abstract_eval(lambda x: Aval(x.shape, x.dtype))

twice = Primitive("lowering_test_twice")
twice.def_abstract_eval(lambda x, *, body: Aval(x.shape, x.dtype))


@twice.def_lowering
def _twice(eq, lower_sub):
    run = lower_sub(eq.params["body"])

    def kernel(backend, x, out=None):
        return run(run(x)[0])[0]
    return kernel


def test_impl_fallback_custom_rule_and_missing_kernel():
    check(lambda x: ops.exp(impl_only.bind(ops.sin(x))), (X,))
    body = make_graph(lambda x: ops.mul(x, 3.0), X)
    lowered = lower(make_graph(lambda x: twice.bind(x, body=body), X))
    np.testing.assert_array_equal(lowered(X)[0], X * 9)
    with pytest.raises(MissingRuleError, match="lowering_test_no_kernel"):
        lower(make_graph(lambda x: no_kernel.bind(x), X))


def test_compile_graph_runs_the_lowered_program():
    graph = make_graph(lambda x: ops.sum(ops.tanh(ops.exp(ops.mul(x, 2.0)))), X)
    exe = compile_graph(graph)
    assert exe.source_graph is graph and exe.program.program.instructions
    np.testing.assert_array_equal(exe(X)[0], evaluate(exe.graph, X)[0])
    stats = exe.memory
    assert stats["arena_bytes"] >= stats["lower_bound"] > 0
