"""ms.ops linear algebra against NumPy; gradients (composed ops, and the custom backward of
inverse/det); Graph mode, and the eager-only decompositions refusing it."""
import numpy as np
import pytest

from sporeling.ms import ops
from sporeling.ms.common import EagerOnlyError

from math_refs import T, assert_grad_matches, assert_matches, in_graph

rng = np.random.default_rng(7)
A = rng.standard_normal((3, 4)).astype(np.float32)
B = rng.standard_normal((4, 2)).astype(np.float32)
C = rng.standard_normal((3, 2)).astype(np.float32)
BA = rng.standard_normal((5, 3, 4)).astype(np.float32)
BB = rng.standard_normal((5, 4, 2)).astype(np.float32)
v3 = rng.standard_normal(3).astype(np.float32)
v4 = rng.standard_normal(4).astype(np.float32)
SQ = (rng.standard_normal((3, 3)) + 3 * np.eye(3)).astype(np.float32)
SPD = (SQ @ SQ.T + np.eye(3)).astype(np.float32)

CASES = [
    ("matmul", lambda: ops.matmul(T(A), T(B)), A @ B),
    ("matmul_broadcast", lambda: ops.matmul(T(BA), T(B)), BA @ B),
    ("mm", lambda: ops.mm(T(A), T(B)), A @ B),
    ("bmm", lambda: ops.bmm(T(BA), T(BB)), BA @ BB),
    ("mv", lambda: ops.mv(T(A), T(v4)), A @ v4),
    ("dot", lambda: ops.dot(T(BA), T(BB)), np.dot(BA, BB)),
    ("dot_vec", lambda: ops.dot(T(A), T(v4)), np.dot(A, v4)),
    ("tensor_dot", lambda: ops.tensor_dot(T(BA), T(BB), ((0, 2), (0, 1))),
     np.tensordot(BA, BB, ((0, 2), (0, 1)))),
    ("tensor_dot_int", lambda: ops.tensor_dot(T(A), T(B), 1), np.tensordot(A, B, 1)),
    ("batch_dot", lambda: ops.batch_dot(T(BA), T(BB)), np.einsum("bij,bjk->bik", BA, BB)),
    ("batch_dot_2d", lambda: ops.batch_dot(T(A), T(A)), (A * A).sum(1, keepdims=True)),
    ("batch_dot_axes", lambda: ops.batch_dot(T(BA), T(BA), (2, 2)), np.einsum("bij,bkj->bik", BA, BA)),
    ("outer", lambda: ops.outer(T(v3), T(v4)), np.outer(v3, v4)),
    ("ger", lambda: ops.ger(T(v3), T(v4)), np.outer(v3, v4)),
    ("inner", lambda: ops.inner(T(A), T(A)), np.inner(A, A)),
    ("kron", lambda: ops.kron(T(A[:2, :2]), T(C)), np.kron(A[:2, :2], C)),
    ("kron_vec", lambda: ops.kron(T(v3), T(A)), np.kron(v3, A)),
    ("addmm", lambda: ops.addmm(T(C), T(A), T(B), beta=0.5, alpha=2.0), 0.5 * C + 2 * A @ B),
    ("addbmm", lambda: ops.addbmm(T(C), T(BA), T(BB), alpha=0.5), C + 0.5 * (BA @ BB).sum(0)),
    ("baddbmm", lambda: ops.baddbmm(T(BA @ BB), T(BA), T(BB), beta=2.0), 3 * (BA @ BB)),
    ("adjoint", lambda: ops.adjoint(T(BA)), np.swapaxes(BA, -1, -2)),
    ("trace", lambda: ops.trace(T(A)), np.trace(A)),
    ("matrix_power", lambda: ops.matrix_power(T(SQ), 5), np.linalg.matrix_power(SQ, 5)),
    ("matrix_power_0", lambda: ops.matrix_power(T(SQ), 0), np.eye(3)),
    ("matrix_power_neg", lambda: ops.matrix_power(T(SQ), -2), np.linalg.matrix_power(SQ, -2)),
    ("vander", lambda: ops.vander(T(v3), 4), np.vander(v3, 4)),
    ("einsum", lambda: ops.einsum("ij,jk->ik", T(A), T(B)), A @ B),
    ("inverse", lambda: ops.inverse(T(SQ)), np.linalg.inv(SQ)),
    ("det", lambda: ops.det(T(SQ)), np.linalg.det(SQ)),
    ("slogdet", lambda: ops.slogdet(T(-SQ)), tuple(np.linalg.slogdet(-SQ))),
    ("logdet", lambda: ops.logdet(T(SPD)), np.log(np.linalg.det(SPD))),
    ("matrix_solve", lambda: ops.matrix_solve(T(SQ), T(C)), np.linalg.solve(SQ, C)),
    ("matrix_solve_adjoint", lambda: ops.matrix_solve(T(SQ), T(C), adjoint=True),
     np.linalg.solve(SQ.T, C)),
    ("cholesky", lambda: ops.cholesky(T(SPD)), np.linalg.cholesky(SPD)),
    ("cholesky_upper", lambda: ops.cholesky(T(SPD), upper=True), np.linalg.cholesky(SPD).T),
    ("cholesky_solve", lambda: ops.cholesky_solve(T(C), T(np.linalg.cholesky(SPD))),
     np.linalg.solve(SPD, C)),
    ("pinv", lambda: ops.pinv(T(A)), np.linalg.pinv(A)),
    ("cond", lambda: ops.cond(T(SQ)), np.linalg.cond(SQ)),
    ("svd_values", lambda: ops.svd(T(A), compute_uv=False), np.linalg.svd(A, compute_uv=False)),
]


@pytest.mark.parametrize("name, call, expected", CASES, ids=[c[0] for c in CASES])
def test_linalg_matches_numpy(name, call, expected):
    assert_matches(call(), expected, rtol=1e-4, atol=1e-5)


def test_svd_reconstructs_and_returns_v_not_vh():
    s, u, v = ops.svd(T(A))
    assert_matches(ops.matmul(ops.mul(u, s), ops.adjoint(v)), A, rtol=1e-4, atol=1e-5)
    assert tuple(v.shape) == (4, 3)


def test_documented_example_matmul():
    # ops.matmul of ones (2, 3, 4) and ones (4, 5) -> every entry 4
    out = ops.matmul(T(np.ones((2, 3, 4), np.float32)), T(np.ones((4, 5), np.float32)))
    assert_matches(out, np.full((2, 3, 5), 4.0))


GRADS = [
    ("tensor_dot", lambda t: ops.tensor_dot(t, T(B.astype(np.float64)), 1), A),
    ("batch_dot", lambda t: ops.batch_dot(t, T(BB.astype(np.float64))), BA),
    ("kron", lambda t: ops.kron(t, T(C.astype(np.float64))), A[:2, :2]),
    ("trace", ops.trace, A),
    ("matrix_power", lambda t: ops.matrix_power(t, 3), SQ),
    ("vander", lambda t: ops.vander(t, 3), v3),
    ("inverse", ops.inverse, SQ),
    ("det", ops.det, SQ),
    ("slogdet", lambda t: ops.slogdet(t)[1], SQ),
    ("logdet", ops.logdet, SPD),
    ("matrix_solve", lambda t: ops.matrix_solve(t, T(C.astype(np.float64))), SQ),
    ("matrix_solve_rhs", lambda t: ops.matrix_solve(T(SQ.astype(np.float64)), t), C),
    ("cholesky", ops.cholesky, SPD),
    ("cholesky_solve", lambda t: ops.cholesky_solve(t, T(np.linalg.cholesky(SPD).astype(np.float64))), C),
]


@pytest.mark.parametrize("name, fn, x", GRADS, ids=[g[0] for g in GRADS])
def test_gradients_match_central_differences(name, fn, x):
    assert_grad_matches(fn, x, rtol=1e-5, atol=1e-6)


def test_graph_mode_matches_pynative():
    def f(a, b, c):
        return ops.addmm(c, a, b, alpha=0.5), ops.batch_dot(a, a), ops.kron(a, b), ops.trace(c[:2])
    args = T(A), T(B), T(C)
    for eager, compiled in zip(f(*args), in_graph(f, *args)):
        assert_matches(compiled, eager.asnumpy(), rtol=1e-5, atol=1e-6)


def test_svd_refuses_graph_mode():
    with pytest.raises(EagerOnlyError, match="ops.svd"):
        in_graph(lambda m: ops.svd(m), T(SQ))


def test_singular_and_indefinite_matrices_are_named():
    with pytest.raises(Exception, match="ops.inverse.*singular"):
        ops.inverse(T(np.array([[1.0, 2.0], [2.0, 4.0]], np.float32)))
    with pytest.raises(Exception, match="ops.cholesky.*positive"):
        ops.cholesky(T(np.array([[1.0, 2.0], [2.0, 1.0]], np.float32)))
    assert float(ops.det(T(np.array([[1.0, 2.0], [2.0, 4.0]], np.float32)))) == 0.0


BATCH = (rng.standard_normal((4, 5, 5)) + 2 * np.eye(5)).astype(np.float64)


def test_solvers_batch_and_pivot():
    # a zero leading entry needs a row swap
    swapped = np.array([[0.0, 2.0, 1.0], [1.0, 1.0, 0.0], [3.0, 0.0, 1.0]])
    assert_matches(ops.inverse(T(swapped)), np.linalg.inv(swapped), rtol=1e-10, atol=1e-12)
    assert_matches(ops.det(T(swapped)), np.linalg.det(swapped), rtol=1e-10)
    assert_matches(ops.inverse(T(BATCH)), np.linalg.inv(BATCH), rtol=1e-9, atol=1e-12)
    assert_matches(ops.slogdet(T(BATCH)), tuple(np.linalg.slogdet(BATCH)), rtol=1e-10)
    spd = BATCH @ np.swapaxes(BATCH, -1, -2) + np.eye(5)
    assert_matches(ops.cholesky(T(spd)), np.linalg.cholesky(spd), rtol=1e-10, atol=1e-12)


def test_solvers_in_graph_mode():
    def f(a, b):
        return (ops.inverse(a), ops.det(a), ops.matrix_solve(a, b), ops.slogdet(a)[1],
                ops.cholesky(ops.add(ops.matmul(a, ops.t(a)), ops.eye(3))),
                ops.matrix_power(a, -1))
    a, b = T(SQ), T(C)
    for eager, compiled in zip(f(a, b), in_graph(f, a, b)):
        assert_matches(compiled, eager.asnumpy(), rtol=1e-5, atol=1e-6)
