"""Control-flow primitives: values, pytrees, errors, modes (grad checks: grad_cases/control)."""
import numpy as np
import pytest

from sporeling.core import DTypeError, ShapeError
from sporeling.compiler import ops
from sporeling.compiler.autodiff import grad
from sporeling.compiler.ir import evaluate, make_graph, verify
from sporeling.compiler.ops._control_grad import WhileGradError

f32 = np.float32


def test_cond_takes_either_branch_and_counts_one_equation():
    def f(x):
        return ops.cond(ops.greater(ops.sum(x), 0.0), lambda a: ops.mul(a, 2.0),
                        lambda a: ops.neg(a), x)
    x = np.array([1.0, 2.0], f32)
    np.testing.assert_allclose(f(x), [2.0, 4.0])
    np.testing.assert_allclose(f(-x), [1.0, 2.0])
    g = make_graph(f, x)
    verify(g)
    assert g.primitive_counts()["cond"] == 1
    np.testing.assert_allclose(evaluate(g, -x)[0], [1.0, 2.0])


def test_cond_pytrees_and_static_leaves():
    out = ops.cond(np.array(False), lambda d: {"a": ops.add(d["a"], 1.0), "tag": "x"},
                   lambda d: {"a": ops.sub(d["a"], 1.0), "tag": "x"}, {"a": np.ones(2, f32)})
    assert out["tag"] == "x"
    np.testing.assert_allclose(out["a"], [0.0, 0.0])


def test_cond_weak_python_number_takes_the_other_branchs_type():
    out = ops.cond(np.array(False), lambda a: ops.mul(a, 3.0), lambda a: 0.0, np.ones(3, f32))
    assert out.dtype == f32 and out.shape == (3,)


def test_cond_branch_mismatch_names_both_types_and_line():
    with pytest.raises(DTypeError, match=r"float32\[3\].*float64\[3\].*test_cf_ops.py:\d+"):
        ops.cond(np.array(True), lambda a: a, lambda a: ops.cast(a, np.float64),
                 np.ones(3, f32))
    with pytest.raises(ShapeError, match=r"float32\[3\].*float32\[6\]"):
        ops.cond(np.array(True), lambda a: a, lambda a: ops.concat([a, a]), np.ones(3, f32))


def test_while_loop_pytree_carry_and_closure():
    w = np.float32(2.0)
    i, (a, b) = ops.while_loop(lambda c: ops.less(c[0], 3),
                               lambda c: (ops.add(c[0], 1), (ops.mul(c[1][0], w), c[1][1])),
                               (np.int64(0), (np.ones(2, f32), np.zeros(1, f32))))
    assert int(i) == 3
    np.testing.assert_allclose(a, [8.0, 8.0])


def test_while_body_changing_the_carry_is_an_error():
    with pytest.raises(ShapeError, match=r"carry.*float32\[3\].*float32\[6\].*test_cf_ops"):
        ops.while_loop(lambda c: ops.less(ops.sum(c), 3.0), lambda c: ops.concat([c, c]),
                       np.ones(3, f32))


def test_scan_matches_a_python_loop_both_directions():
    xs = np.arange(12, dtype=f32).reshape(4, 3)
    for reverse in (False, True):
        carry, ys = ops.scan(lambda c, x: (ops.add(ops.mul(c, 0.5), x), ops.sum(c)),
                             np.zeros(3, f32), xs, reverse=reverse)
        c, expect = np.zeros(3, f32), [None] * 4
        for i in (reversed(range(4)) if reverse else range(4)):
            expect[i] = c.sum()
            c = c * 0.5 + xs[i]
        np.testing.assert_allclose(carry, c)
        np.testing.assert_allclose(ys, expect)


def test_scan_without_xs_and_empty_scan():
    carry, ys = ops.scan(lambda c, _: (ops.mul(c, 2.0), None), np.float32(1), length=3)
    assert float(carry) == 8.0 and ys is None
    carry, ys = ops.scan(lambda c, x: (ops.add(c, x), x), np.float32(1), np.zeros((0, 2), f32)
                         [:, 0])
    assert float(carry) == 1.0 and ys.shape == (0,)
    with pytest.raises(ShapeError, match="length"):
        ops.scan(lambda c, x: (c, x), np.float32(1))


def test_fori_loop_static_is_a_scan_traced_is_a_while():
    body = lambda i, v: ops.add(v, ops.cast(i, v.dtype))  # noqa: E731
    assert float(ops.fori_loop(1, 4, body, np.float32(0))) == 6.0
    g = make_graph(lambda v: ops.fori_loop(0, 3, body, v), np.float32(0))
    assert "scan" in g.primitive_counts()
    g = make_graph(lambda v, n: ops.fori_loop(0, n, body, v), np.float32(0), np.int64(3))
    assert "while_loop" in g.primitive_counts()
    assert float(evaluate(g, np.float32(0), np.int64(4))[0]) == 6.0


def test_a_far_fori_loop_bound_allocates_nothing_per_step():
    """fori_loop's scan carries its index (it built an int64 array of every index, 16 GiB
    for fori_loop(-2**31, 2, ...)), and a scan without per-step results keeps no list of
    them: a loop of 2**62 steps holds nothing while it runs."""
    import tracemalloc
    from sporeling.compiler.ops.control import run_scan

    class Stop(Exception):
        pass
    steps = []

    def body(c):
        steps.append(c)
        if len(steps) == 3:
            raise Stop
        return [c + 1]
    tracemalloc.start()
    try:
        with pytest.raises(Stop):
            run_scan((np.int64(0),), 1, 0, 2 ** 62, False, [], body)
        assert tracemalloc.get_traced_memory()[1] < 2 ** 20
    finally:
        tracemalloc.stop()
    g = make_graph(lambda v: ops.fori_loop(-2 ** 31, 2, lambda i, c: ops.add(c, i), v),
                   np.int64(0))
    (eq,) = [e for e in g.equations if e.prim.name == "scan"]
    assert eq.params["length"] == 2 ** 31 + 2 and eq.params["n_xs"] == 0


def test_graph_mode_grad_of_scan_and_cond():
    f = lambda x: ops.sum(ops.scan(lambda c, a: (ops.mul(c, a), c), ops.sum(x), x)[1])  # noqa
    g = make_graph(grad(f), np.ones(3))
    x = np.array([1.0, 2.0, 3.0])
    np.testing.assert_allclose(evaluate(g, x)[0], grad(f)(x))


def test_graph_mode_grad_of_data_dependent_while_is_a_clear_error():
    f = lambda v: ops.sum(ops.while_loop(lambda c: ops.less(ops.sum(c), 10.0),  # noqa: E731
                                         lambda c: ops.mul(c, 2.0), v))
    np.testing.assert_allclose(grad(f)(np.ones(2)), [8.0, 8.0])  # eagerly: fine
    with pytest.raises(WhileGradError, match="fori_loop"):
        make_graph(grad(f), np.ones(2))


def test_predicate_must_be_a_scalar():
    with pytest.raises(ShapeError, match="scalar"):
        ops.cond(np.ones(2, bool), lambda: 1.0, lambda: 2.0)
    assert float(ops.cond(np.array([3]), lambda: np.float32(1), lambda: np.float32(2))) == 1
