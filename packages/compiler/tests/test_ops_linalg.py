"""matmul, einsum, outer and triangles against NumPy."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from sporeling.compiler import ops
from sporeling.compiler.ops.linalg import einsum_spec
from sporeling.core import ShapeError
from sporeling.runtime.memory import owner_of

rng = np.random.default_rng(0)
r = rng.standard_normal


@pytest.mark.parametrize("sa, sb", [((3, 4), (4, 5)), ((2, 1, 3, 4), (5, 4, 2)),
                                    ((4,), (2, 4, 3)), ((2, 3, 4), (4,)), ((1, 3, 4), (6, 4, 2))])
def test_matmul_broadcasts_batches(sa, sb):
    a, b = r(sa), r(sb)
    np.testing.assert_allclose(ops.matmul(a, b), np.matmul(a, b))


@pytest.mark.parametrize("subscripts, shapes", [
    ("ij,jk->ik", [(3, 4), (4, 5)]), ("ij,jk", [(3, 4), (4, 5)]), ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("ii", [(3, 3)]), ("ii->i", [(3, 3)]), ("ij->ji", [(2, 3)]), ("ijk", [(2, 3, 4)]),
    ("i,i", [(3,), (3,)]), ("i,j", [(3,), (4,)]), ("ba,Ab", [(2, 3), (4, 2)]),
    ("...ij,...jk->...ik", [(5, 2, 3), (5, 3, 4)]), ("...ij,jk", [(5, 2, 3), (3, 4)]),
    ("i...->...", [(2, 3, 4)]), ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]), ("ijk->", [(2, 3, 4)]),
])
def test_einsum_matches_numpy(subscripts, shapes):
    xs = [r(s) for s in shapes]
    want = np.einsum(subscripts, *xs)
    got = ops.einsum(subscripts, *xs)
    np.testing.assert_allclose(got, want, rtol=1e-12)
    assert einsum_spec(subscripts, tuple(shapes))[1] == want.shape
    assert owner_of(got) is not None


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_random_contractions_match_numpy(data):
    letters = "abcde"
    sizes = {c: data.draw(st.integers(1, 3)) for c in letters}
    subs = [data.draw(st.text(letters, min_size=1, max_size=3)) for _ in range(2)]
    used = sorted(set("".join(subs)))
    out = "".join(data.draw(st.permutations(used))[:data.draw(st.integers(0, len(used)))])
    spec = ",".join(subs) + "->" + out
    xs = [r(tuple(sizes[c] for c in s)) for s in subs]
    np.testing.assert_allclose(ops.einsum(spec, *xs), np.einsum(spec, *xs), rtol=1e-10,
                               atol=1e-12)


def test_outer_flattens_and_promotes():
    np.testing.assert_array_equal(ops.outer(np.ones((2, 2)), np.arange(3)),
                                  np.outer(np.ones((2, 2)), np.arange(3)))


@pytest.mark.parametrize("k", [-2, -1, 0, 1, 3])
def test_triangles_match_numpy_on_batches(k):
    x = r((2, 3, 4))
    np.testing.assert_array_equal(ops.tril(x, k), np.tril(x, k))
    np.testing.assert_array_equal(ops.triu(x, k), np.triu(x, k))


@pytest.mark.parametrize("call, match", [
    (lambda: ops.einsum("ij,jk", r((2, 3)), r((4, 5))), r"einsum: index 'j' has different sizes"),
    (lambda: ops.einsum("ij,jk", r((2, 3))), "operand count"),
    (lambda: ops.einsum("ijk", r((2, 3))), r"rank.*\(2, 3\)"),
    (lambda: ops.einsum("ij->ik", r((2, 3))), "bad output"),
    (lambda: ops.einsum("i1", r((2, 3))), "bad subscript characters"),
    (lambda: ops.tril(r(3)), "tril: needs a matrix"),
    (lambda: ops.matmul(r((2, 3)), r((2, 3))), "matmul: inner dimensions differ"),
])
def test_errors_name_the_op_and_shapes(call, match):
    with pytest.raises(ShapeError, match=match):
        call()
