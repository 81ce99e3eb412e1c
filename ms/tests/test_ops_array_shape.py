"""ms.ops array operations (shapes, joins, splits, reordering, diagonals) against NumPy and
MindSpore's documented examples; gradients and Graph mode for a selection."""
import numpy as np
import pytest

from sporeling.ms import ops

from array_nn_checks import T, check_grad, check_jit, value

X = np.arange(24.0).reshape(2, 3, 4)
M = np.arange(12.0).reshape(3, 4)
V = np.array([1.0, 2.0, 3.0])


def _shapes(parts):
    return [p.shape for p in parts]


CASES = [
    ("reshape", lambda: ops.reshape(T(X), (4, -1)), X.reshape(4, -1)),
    ("broadcast_to", lambda: ops.broadcast_to(T(V), (2, -1)), np.broadcast_to(V, (2, 3))),
    ("concat", lambda: ops.concat((T(M), T(M)), 1), np.concatenate([M, M], 1)),
    ("cat", lambda: ops.cat([T(M), T(M)]), np.concatenate([M, M])),
    ("stack", lambda: ops.stack([T(V), T(V * 2)], 1), np.stack([V, V * 2], 1)),
    ("hstack", lambda: ops.hstack((T(M), T(M))), np.hstack([M, M])),
    ("vstack", lambda: ops.vstack((T(V), T(V))), np.vstack([V, V])),
    ("dstack", lambda: ops.dstack((T(M), T(M))), np.dstack([M, M])),
    ("column_stack", lambda: ops.column_stack((T(V), T(V))), np.column_stack([V, V])),
    ("expand_dims", lambda: ops.expand_dims(T(M), -1), M[..., None]),
    ("unsqueeze", lambda: ops.unsqueeze(T(M), 0), M[None]),
    ("squeeze", lambda: ops.squeeze(T(M[None, :, None]), 2), M[None]),
    ("transpose", lambda: ops.transpose(T(X), (2, 0, 1)), X.transpose(2, 0, 1)),
    ("permute", lambda: ops.permute(T(X), (1, 0, 2)), X.transpose(1, 0, 2)),
    ("swapaxes", lambda: ops.swapaxes(T(X), 0, 2), X.swapaxes(0, 2)),
    ("swapdims", lambda: ops.swapdims(T(X), 1, -1), X.swapaxes(1, -1)),
    ("moveaxis", lambda: ops.moveaxis(T(X), 0, -1), np.moveaxis(X, 0, -1)),
    ("movedim", lambda: ops.movedim(T(X), (0, 1), (2, 0)), np.moveaxis(X, (0, 1), (2, 0))),
    ("flip", lambda: ops.flip(T(X), (0, 2)), X[::-1, :, ::-1]),
    ("reverse", lambda: ops.reverse(T(M), [1]), M[:, ::-1]),
    ("fliplr", lambda: ops.fliplr(T(M)), np.fliplr(M)),
    ("flipud", lambda: ops.flipud(T(M)), np.flipud(M)),
    ("tile", lambda: ops.tile(T(V), (2, 2)), np.tile(V, (2, 2))),
    ("repeat_elements", lambda: ops.repeat_elements(T(M), 2, 1), np.repeat(M, 2, 1)),
    ("repeat_interleave", lambda: ops.repeat_interleave(T(M), T([1, 0, 2]), 0),
     np.repeat(M, [1, 0, 2], 0)),
    ("narrow", lambda: ops.narrow(T(M), 1, 1, 2), M[:, 1:3]),
    ("tril", lambda: ops.tril(T(M), -1), np.tril(M, -1)),
    ("triu", lambda: ops.triu(T(M), 1), np.triu(M, 1)),
    ("where", lambda: ops.where(T(M > 5), T(M), T(-M)), np.where(M > 5, M, -M)),
    ("select", lambda: ops.select(T(M > 5), T(M), 0.0), np.where(M > 5, M, 0.0)),
    ("nan_to_num", lambda: ops.nan_to_num(T(np.array([np.nan, np.inf, -np.inf, 3.0], np.float32)),
                                          1.0, 5.0),
     np.array([1.0, 5.0, np.finfo(np.float32).min, 3.0])),
    ("diag", lambda: ops.diag(T(V)), np.diag(V)),
    ("diagflat", lambda: ops.diagflat(T(V), -1), np.diagflat(V, -1)),
    ("diagonal", lambda: ops.diagonal(T(X), 1, 1, 2), np.diagonal(X, 1, 1, 2)),
    ("cross", lambda: ops.cross(T(np.eye(3)), T(np.ones((3, 3))), 1),
     np.cross(np.eye(3), np.ones((3, 3)))),
    ("renorm", lambda: ops.renorm(T(M), 2, 0, 5.0),
     M * np.minimum(1, 5.0 / (np.linalg.norm(M, axis=1, keepdims=True) + 1e-7))),
    ("block_diag", lambda: ops.block_diag(T([[1.0, 2.0]]), T([[3.0], [4.0]])),
     np.array([[1.0, 2.0, 0.0], [0.0, 0.0, 3.0], [0.0, 0.0, 4.0]])),
    ("deepcopy", lambda: ops.deepcopy(T(M)), M),
    ("dyn_shape", lambda: ops.dyn_shape(T(X)), np.array([2, 3, 4])),
    ("reverse_sequence", lambda: ops.reverse_sequence(T(np.arange(9).reshape(3, 3)),
                                                      T([1, 2, 3]), 1),
     np.array([[0, 1, 2], [4, 3, 5], [8, 7, 6]])),
    # MindSpore's documented example
    ("channel_shuffle", lambda: ops.channel_shuffle(T(np.arange(16).reshape(1, 4, 2, 2)), 2),
     np.arange(16).reshape(1, 2, 2, 2, 2).transpose(0, 2, 1, 3, 4).reshape(1, 4, 2, 2)),
    ("batch_to_space_nd", lambda: ops.batch_to_space_nd(
        T(np.arange(1.0, 5.0).reshape(4, 1, 1, 1)), [2, 2], [[0, 0], [0, 0]]),
     np.array([[[[1.0], [2.0]], [[3.0], [4.0]]]])),
    ("space_to_batch_nd", lambda: ops.space_to_batch_nd(
        T(np.arange(1.0, 5.0).reshape(1, 2, 2, 1)), [2, 2], [[0, 0], [0, 0]]),
     np.arange(1.0, 5.0).reshape(4, 1, 1, 1)),
    ("view_as_real", lambda: ops.view_as_real(np.array([1 + 2j, 3 - 1j])),
     np.array([[1.0, 2.0], [3.0, -1.0]])),
]


@pytest.mark.parametrize("name, call, expected", CASES, ids=[c[0] for c in CASES])
def test_matches_reference(name, call, expected):
    np.testing.assert_allclose(value(call()), expected, rtol=1e-6)


def test_diagonal_scatter_replaces_the_diagonal():
    out = value(ops.diagonal_scatter(T(M), T([9.0, 8.0, 7.0]), 1))
    expected = M.copy()
    expected[[0, 1, 2], [1, 2, 3]] = [9.0, 8.0, 7.0]
    np.testing.assert_array_equal(out, expected)


def test_splits():
    # an int is a piece SIZE for ops.split (PyTorch's rule), a piece COUNT for tensor_split
    assert _shapes(ops.split(T(M), 3, 1)) == [(3, 3), (3, 1)]
    assert _shapes(ops.split(T(M), [1, 3], 1)) == [(3, 1), (3, 3)]
    assert _shapes(ops.tensor_split(T(M), 3, 1)) == [(3, 2), (3, 1), (3, 1)]
    assert _shapes(ops.tensor_split(T(M), [1, 5], 1)) == [(3, 1), (3, 3), (3, 0)]
    assert _shapes(ops.chunk(T(M), 3, 1)) == [(3, 2), (3, 2)]
    assert _shapes(ops.vsplit(T(M), 3)) == [(1, 4)] * 3
    assert _shapes(ops.hsplit(T(M), [2])) == [(3, 2), (3, 2)]
    assert _shapes(ops.dsplit(T(X), 2)) == [(2, 3, 2)] * 2
    for got, exp in zip(ops.tensor_split(T(M), 3, 1), np.array_split(M, 3, 1)):
        np.testing.assert_array_equal(value(got), exp)
    assert [value(u).tolist() for u in ops.unstack(T(M[:2]))] == M[:2].tolist()
    assert [value(u).tolist() for u in ops.unbind(T(M[:, :2]), 1)] == M[:, :2].T.tolist()


def test_shape_queries():
    assert ops.shape(T(X)) == (2, 3, 4)
    assert ops.rank(T(X)) == 3
    assert ops.size(T(X)) == 24 and ops.numel(T(M)) == 12


def test_meshgrid_both_indexings():
    for indexing in ("xy", "ij"):
        got = ops.meshgrid(T([1, 2, 3]), T([4, 5]), indexing=indexing)
        for g, e in zip(got, np.meshgrid([1, 2, 3], [4, 5], indexing=indexing)):
            np.testing.assert_array_equal(value(g), e)


@pytest.mark.parametrize("fn", [
    lambda a: ops.diagonal(a, -1),
    lambda a: ops.diag(a[0]),
    lambda a: ops.renorm(a, 1, 1, 2.0),
    lambda a: ops.reverse_sequence(a, T([2, 3, 1]), 1),
    lambda a: ops.block_diag(a, a[:1]),
    lambda a: ops.nan_to_num(a * 2.0),
    lambda a: ops.cross(a[:, :3], a[:, 1:], 1),
])
def test_gradients(fn):
    check_grad(fn, np.random.default_rng(0).standard_normal((3, 4)))


@pytest.mark.parametrize("fn", [
    lambda a: ops.split(a, 3, 1)[1],
    lambda a: ops.moveaxis(a, 0, 1),
    lambda a: ops.space_to_batch_nd(ops.reshape(a, (1, 4, 3, 1)), [2, 1], [[0, 0], [0, 1]]),
    lambda a: ops.diagonal_scatter(a, a[0, :3]),
    lambda a: ops.meshgrid(a[0], a[1])[1],
])
def test_graph_mode(fn):
    check_jit(fn, M.astype(np.float32))
