"""Collectives as compiler primitives: in the IR, in Graph mode (sx.jit) and under sx.grad,
on 2 local ranks, against the analytic gradient of the sum of every rank's loss."""
import numpy as np
import pytest

from sporeling.core import context

import sporeling.expression as sx
import sporeling.parallel as sp
from sporeling.compiler import ops
from sporeling.compiler.ir import make_graph
from sporeling.parallel.testing import run_local



@pytest.fixture(autouse=True)
def _short_timeout():
    with context(comm_timeout=20):  # a broken test fails in seconds, not minutes
        yield


N = 2
X = np.array([[1.0, -2.0, 3.0, 0.5], [4.0, 1.5, -1.0, 2.0]])
W = np.array([[0.5, 1.0, -1.0, 2.0], [1.5, -0.5, 0.25, 3.0]])


def x_of(r):
    return X * (r + 1) + r          # distinct per rank, no ties in max/min


def w_of(r):
    return W * (r + 2)


def weighted(op):
    """Rank r's loss: sum(w_r * op(x))."""
    return lambda x: (sx.Tensor(w_of(sp.get_rank())) * op(x)).sum()


def grads(op, *, jit=False):
    def job():
        f = sx.grad(weighted(op))
        f = sx.jit(f) if jit else f
        return f(sx.Tensor(x_of(sp.get_rank()))).asnumpy()
    return run_local(N, job)


def _blocks(a, axis):
    return np.split(a, N, axis=axis)


xs, ws = [x_of(r) for r in range(N)], [w_of(r) for r in range(N)]
wsum = sum(ws)
REDUCED = {"sum": sum(xs), "max": np.maximum(*xs), "min": np.minimum(*xs), "prod": xs[0] * xs[1]}

ANALYTIC = {
    "all_reduce-sum": (lambda x: sp.all_reduce(x, "sum"), [wsum] * N),
    "all_reduce-mean": (lambda x: sp.all_reduce(x, "mean"), [wsum / N] * N),
    "all_reduce-max": (lambda x: sp.all_reduce(x, "max"),
                       [wsum * (xs[r] == REDUCED["max"]) for r in range(N)]),
    "all_reduce-min": (lambda x: sp.all_reduce(x, "min"),
                       [wsum * (xs[r] == REDUCED["min"]) for r in range(N)]),
    "all_reduce-prod": (lambda x: sp.all_reduce(x, "prod"),
                        [wsum * REDUCED["prod"] / xs[r] for r in range(N)]),
    # W is shaped for the op's output; the ops below keep X's shape by design
    "broadcast": (lambda x: sp.broadcast(x, root=1), [np.zeros_like(X), wsum]),
    "reduce": (lambda x: sp.reduce(x, root=0), [ws[0]] * N),
}


@pytest.mark.parametrize("name", sorted(ANALYTIC))
@pytest.mark.parametrize("jit", [False, True], ids=["pynative", "graph"])
def test_gradient_matches_the_analytic_one(name, jit):
    op, expected = ANALYTIC[name]
    for r, got in enumerate(grads(op, jit=jit)):
        np.testing.assert_allclose(got, expected[r], rtol=1e-12, err_msg=f"rank {r}")


@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("jit", [False, True], ids=["pynative", "graph"])
def test_all_gather_backward_is_reduce_scatter(axis, jit):
    def job():
        r = sp.get_rank()
        w = np.concatenate([w_of(r)] * N, axis=axis)  # shaped like the gathered output
        f = sx.grad(lambda x: (sx.Tensor(w) * sp.all_gather(x, axis)).sum())
        return (sx.jit(f) if jit else f)(sx.Tensor(x_of(r))).asnumpy()
    for r, got in enumerate(run_local(N, job)):
        total = sum(np.concatenate([w_of(s)] * N, axis=axis) for s in range(N))
        np.testing.assert_allclose(got, _blocks(total, axis)[r])


@pytest.mark.parametrize("op", ["sum", "mean"])
def test_reduce_scatter_backward_is_all_gather(op):
    def job():
        r = sp.get_rank()
        w = _blocks(w_of(r), 1)[0]  # shaped like this rank's block
        f = sx.grad(lambda x: (sx.Tensor(w) * sp.reduce_scatter(x, op, axis=1)).sum())
        return f(sx.Tensor(x_of(r))).asnumpy()
    expected = np.concatenate([_blocks(w_of(s), 1)[0] for s in range(N)], axis=1)
    for got in run_local(N, job):
        np.testing.assert_allclose(got, expected / (N if op == "mean" else 1))


@pytest.mark.parametrize("split_axis, concat_axis", [(0, 1), (1, 0), (1, 1)])
def test_all_to_all_backward_swaps_the_axes(split_axis, concat_axis):
    def out_shaped_w(r):  # w shaped like all_to_all's output on rank r
        shape = list(X.shape)
        shape[split_axis] //= N
        shape[concat_axis] *= N
        return np.arange(np.prod(shape), dtype=float).reshape(shape) * (r + 1) - 3

    def job():
        r = sp.get_rank()
        f = sx.grad(lambda x: (sx.Tensor(out_shaped_w(r)) *
                               sp.all_to_all(x, split_axis, concat_axis)).sum())
        return f(sx.Tensor(x_of(r))).asnumpy()
    for r, got in enumerate(run_local(N, job)):
        # rank r's block j (along split_axis) became part j... of rank j's output, in slot r
        parts = [np.split(out_shaped_w(j), N, axis=concat_axis)[r] for j in range(N)]
        np.testing.assert_allclose(got, np.concatenate(parts, axis=split_axis))


@pytest.mark.parametrize("jit", [False, True], ids=["pynative", "graph"])
def test_send_backward_receives_the_gradient_recv_sends_back(jit):
    def job():
        r = sp.get_rank()
        if r == 0:
            f = lambda x: sp.send(x, dest=1, tag=3) * 1.0  # the token: zero, keeps the send
        else:
            f = lambda z: (sx.Tensor(w_of(1)) * sp.recv(z, source=0, tag=3) ** 2).sum()
        g = sx.grad(f)
        return (sx.jit(g) if jit else g)(sx.Tensor(x_of(r) if r == 0 else np.zeros_like(X)))
    g0, g1 = (g.asnumpy() for g in run_local(N, job))
    np.testing.assert_allclose(g0, 2 * w_of(1) * x_of(0))  # d/dx0 of sum(w1 * x0**2)
    np.testing.assert_allclose(g1, np.zeros_like(X))


def test_collectives_appear_in_the_ir_and_cse_does_not_merge_them():
    from sporeling.compiler.passes.base import PassContext
    from sporeling.compiler.passes.cse import eliminate_common_subexpressions

    def job():
        g = make_graph(lambda x: ops.add(ops.add(sp.all_reduce(x), sp.all_reduce(x)),
                                         ops.add(ops.exp(x), ops.exp(x))), X)
        return eliminate_common_subexpressions(g, PassContext()).primitive_counts()
    counts = run_local(N, job)[0]
    assert counts["all_reduce"] == 2 and counts["exp"] == 1


def test_graph_mode_keeps_both_identical_collectives_after_optimisation():
    def job():
        r = sp.get_rank()
        f = sx.jit(lambda x: sp.all_reduce(x) * 2 + sp.all_reduce(x))
        return f(sx.Tensor(x_of(r))).asnumpy()
    for got in run_local(N, job):
        np.testing.assert_allclose(got, 3 * sum(xs))


def test_value_in_pynative_and_graph_mode_agree_with_numpy():
    def job():
        x = sx.Tensor(x_of(sp.get_rank()))
        f = lambda x: sp.all_gather(sp.all_reduce(x, "max"), axis=1)
        return f(x).asnumpy(), sx.jit(f)(x).asnumpy()
    for eager, graph in run_local(N, job):
        expected = np.concatenate([REDUCED["max"]] * N, axis=1)
        np.testing.assert_allclose(eager, expected)
        np.testing.assert_allclose(graph, expected)
