"""ms.ops gathers, scatters, masks, segments and uniqueness against NumPy and MindSpore's
documented examples; eager-only functions refuse Graph mode; gradients and Graph mode."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.ms import ops
from sporeling.ms.common import EagerOnlyError

from array_nn_checks import T, check_grad, check_jit, value

M = np.arange(12.0).reshape(3, 4)
IDX = np.array([[0, 2], [1, 0], [2, 2]])


def _scatter_nd_ref(base, indices, updates, op):
    out = base.copy()
    for index, u in zip(indices.reshape(-1, indices.shape[-1]), updates.reshape(len(
            indices.reshape(-1, indices.shape[-1])), *base.shape[indices.shape[-1]:])):
        out[tuple(index)] = op(out[tuple(index)], u)
    return out


U2 = np.array([10.0, 20.0])
I2 = np.array([[0, 1], [2, 3]])

CASES = [
    ("gather", lambda: ops.gather(T(M), T([2, 0, -1]), 1), M[:, [2, 0, 3]]),
    ("gather_batch", lambda: ops.gather(T(M), T(IDX), 1, batch_dims=1),
     np.take_along_axis(M, IDX, 1)),
    ("gather_elements", lambda: ops.gather_elements(T(M), 1, T(IDX)),
     np.take_along_axis(M, IDX, 1)),
    ("gather_d", lambda: ops.gather_d(T(M), 0, T([[2, 1, 0, 0]])),
     np.take_along_axis(M, np.array([[2, 1, 0, 0]]), 0)),
    ("gather_nd", lambda: ops.gather_nd(T(M), T(I2)), M[[0, 2], [1, 3]]),
    ("index_select", lambda: ops.index_select(T(M), 0, T([2, 2, 0])), M[[2, 2, 0]]),
    ("index_add", lambda: ops.index_add(T(M), T([0, 2, 0]), T(np.ones((3, 3))), 1),
     M + np.array([2.0, 0.0, 1.0, 0.0])),
    ("inplace_index_add", lambda: ops.inplace_index_add(T(M), T([1]), T(np.ones((1, 4))), 0),
     M + np.array([[0.0], [1.0], [0.0]])),
    ("index_fill", lambda: ops.index_fill(T(M), 1, T([0, 3]), -1.0),
     np.where(np.isin(np.arange(4), [0, 3]), -1.0, M)),
    ("inplace_add", lambda: ops.inplace_add(T(M), T(np.ones((2, 4))), T([0, 2])),
     M + np.array([[1.0], [0.0], [1.0]])),
    ("inplace_sub", lambda: ops.inplace_sub(T(M), T(np.ones(4)), 1),
     M - np.array([[0.0], [1.0], [0.0]])),
    ("inplace_update", lambda: ops.inplace_update(T(M), T(np.zeros((1, 4))), T([1])),
     M * np.array([[1.0], [0.0], [1.0]])),
    ("masked_fill", lambda: ops.masked_fill(T(M), T(M > 6), 0.5), np.where(M > 6, 0.5, M)),
    ("masked_select", lambda: ops.masked_select(T(M), T(M > 6)), M[M > 6]),
    ("nonzero", lambda: ops.nonzero(T(M > 8)), np.argwhere(M > 8)),
    ("argwhere", lambda: ops.argwhere(T(M % 5 == 0)), np.argwhere(M % 5 == 0)),
    ("bincount", lambda: ops.bincount(T([1, 1, 3]), T([0.5, 1.0, 2.0]), 5),
     np.bincount([1, 1, 3], [0.5, 1.0, 2.0], 5)),
    ("count_nonzero", lambda: ops.count_nonzero(T(M % 3), 1), (M % 3 != 0).sum(1)),
    ("population_count", lambda: ops.population_count(T(np.array([0, 1, 7, -1], np.int16))),
     np.array([0, 1, 3, 16])),
    ("population_count_int64", lambda: ops.population_count(
        T(np.array([2 ** 40 + 5, -2, np.iinfo(np.int64).min], np.int64))),
     np.array([3, 63, 1])),
    ("scatter", lambda: ops.scatter(T(np.zeros((2, 3))), 1, T([[2], [0]]), T([[5.0], [6.0]])),
     np.array([[0.0, 0.0, 5.0], [6.0, 0.0, 0.0]])),
    ("scatter_nd", lambda: ops.scatter_nd(T([[0], [2], [0]]), T([1.0, 2.0, 3.0]), (4,)),
     np.array([4.0, 0.0, 2.0, 0.0])),
    ("tensor_scatter_add", lambda: ops.tensor_scatter_add(T(M), T(I2), T(U2)),
     _scatter_nd_ref(M, I2, U2, np.add)),
    ("tensor_scatter_sub", lambda: ops.tensor_scatter_sub(T(M), T(I2), T(U2)),
     _scatter_nd_ref(M, I2, U2, np.subtract)),
    ("tensor_scatter_mul", lambda: ops.tensor_scatter_mul(T(M), T(I2), T(U2)),
     _scatter_nd_ref(M, I2, U2, np.multiply)),
    ("tensor_scatter_div", lambda: ops.tensor_scatter_div(T(M), T(I2), T(U2)),
     _scatter_nd_ref(M, I2, U2, np.divide)),
    ("tensor_scatter_max", lambda: ops.tensor_scatter_max(T(M), T(I2), T(np.array([0.0, 20.0]))),
     _scatter_nd_ref(M, I2, np.array([0.0, 20.0]), np.maximum)),
    ("tensor_scatter_min", lambda: ops.tensor_scatter_min(T(M), T(I2), T(np.array([0.0, 20.0]))),
     _scatter_nd_ref(M, I2, np.array([0.0, 20.0]), np.minimum)),
    ("tensor_scatter_elements", lambda: ops.tensor_scatter_elements(
        T(M), T([[1], [0]]), T([[8.0], [9.0]]), 1, "add"),
     M + np.array([[0, 8.0, 0, 0], [9.0, 0, 0, 0], [0, 0, 0, 0]])),
    ("slice", lambda: ops.slice(T(M), (1, 0), (2, -1)), M[1:3, :]),
    ("strided_slice", lambda: ops.strided_slice(T(np.arange(24).reshape(2, 3, 4)), (1, 0, 0),
                                                (2, 1, 3), (1, 1, 1)),
     np.array([[[12, 13, 14]]])),
    ("strided_slice_masks", lambda: ops.strided_slice(T(M), (1, 0), (0, 3), (1, 2),
                                                      end_mask=1, shrink_axis_mask=0),
     M[1:, 0:3:2]),
    ("slice_scatter", lambda: ops.slice_scatter(T(M), T(np.zeros((3, 2))), 1, 0, 4, 2),
     np.where(np.arange(4) % 2 == 0, 0.0, M)),
    ("select_scatter", lambda: ops.select_scatter(T(M), T(np.ones(4)), 0, -1),
     np.vstack([M[:2], np.ones(4)])),
    ("sequence_mask", lambda: ops.sequence_mask(T([1, 3, 2]), 4),
     np.arange(4) < np.array([[1], [3], [2]])),
    ("unsorted_segment_sum", lambda: ops.unsorted_segment_sum(T(M), T([0, 2, 0]), 3),
     np.array([M[0] + M[2], np.zeros(4), M[1]])),
    ("unsorted_segment_prod", lambda: ops.unsorted_segment_prod(T(M), T([0, 2, 0]), 3),
     np.array([M[0] * M[2], np.ones(4), M[1]])),
    ("unsorted_segment_max", lambda: ops.unsorted_segment_max(T(M), T([1, 1, 0]), 2),
     np.array([M[2], np.maximum(M[0], M[1])])),
    ("unsorted_segment_min", lambda: ops.unsorted_segment_min(T(M), T([1, 1, 0]), 2),
     np.array([M[2], np.minimum(M[0], M[1])])),
    # MindSpore's documented example
    ("sparse_segment_mean", lambda: ops.sparse_segment_mean(
        T(np.array([[0, 1, 2], [1, 2, 3], [3, 6, 7]], np.float32)), T([0, 1, 2]), T([1, 2, 2])),
     np.array([[0.0, 0.0, 0.0], [0.0, 1.0, 2.0], [2.0, 4.0, 5.0]])),
]


@pytest.mark.parametrize("name, call, expected", CASES, ids=[c[0] for c in CASES])
def test_matches_reference(name, call, expected):
    np.testing.assert_allclose(value(call()), expected, rtol=1e-6)


def test_unique_family():
    values, idx = ops.unique(T([1, 2, 5, 2]))  # MindSpore's documented examples
    np.testing.assert_array_equal(value(values), [1, 2, 5])
    np.testing.assert_array_equal(value(idx), [0, 1, 2, 1])
    values, idx = ops.unique(T([1.0, 3.0, 2.0, 3.0]))  # 2.x: first appearance, not sorted
    np.testing.assert_array_equal(value(values), [1.0, 3.0, 2.0])
    np.testing.assert_array_equal(value(idx), [0, 1, 2, 1])
    out, idx, counts = ops.unique_consecutive(T([1, 1, 2, 2, 3, 1, 1, 2]), True, True)
    np.testing.assert_array_equal(value(out), [1, 2, 3, 1, 2])
    np.testing.assert_array_equal(value(idx), [0, 0, 1, 1, 2, 3, 3, 4])
    np.testing.assert_array_equal(value(counts), [2, 2, 1, 2, 1])
    rows = ops.unique_consecutive(T([[1, 1], [1, 1], [2, 0]]), axis=0)
    np.testing.assert_array_equal(value(rows), [[1, 1], [2, 0]])
    # MindSpore's documented example
    y, idx = ops.unique_with_pad(T(np.array([1, 1, 2, 2, 3, 3, 4, 5], np.int32)), 0)
    np.testing.assert_array_equal(value(y), [1, 2, 3, 4, 5, 0, 0, 0])
    np.testing.assert_array_equal(value(idx), [0, 0, 1, 1, 2, 2, 3, 4])


def test_shuffle_permutes_rows():
    out = value(ops.shuffle(T(M)))
    np.testing.assert_array_equal(np.sort(out, axis=0), M)


@pytest.mark.parametrize("fn", [ops.unique, ops.nonzero, ops.argwhere,
                                lambda a: ops.masked_select(a, a > 3)])
def test_value_shaped_results_refuse_graph_mode(fn):
    with pytest.raises(EagerOnlyError, match="no Graph-mode/gradient support"):
        sx.jit(lambda a: fn(a)[0])(T(M))


def test_parameters_are_updated_in_place():
    p = sx.Parameter(M.copy(), name="p")
    out = ops.index_add(p, T([1]), T(np.ones((3, 1))), 1)
    assert out is p
    np.testing.assert_array_equal(value(p)[:, 1], M[:, 1] + 1)


@pytest.mark.parametrize("fn", [
    lambda a: ops.gather(a, T([2, 0]), 1),
    lambda a: ops.gather_nd(a, T(I2)),
    lambda a: ops.scatter(a, 1, T(IDX[:, :1]), a[:, 1:2] * 3.0),
    lambda a: ops.tensor_scatter_mul(a, T(I2), a[0, :2]),
    lambda a: ops.unsorted_segment_max(a, T([1, 1, 0]), 2),
    lambda a: ops.unsorted_segment_prod(a, T([1, 0, 0]), 2),
    lambda a: ops.inplace_update(a, a[:1] * 2.0, T([2])),
    lambda a: ops.masked_fill(a, T(M > 4), 1.0),
])
def test_gradients(fn):
    check_grad(fn, np.random.default_rng(0).standard_normal((3, 4)) + 2.0)


@pytest.mark.parametrize("fn", [
    lambda a: ops.index_add(a, T([0, 0]), a[:, :2], 1),
    lambda a: ops.tensor_scatter_add(a, T(I2), a[1, :2]),
    lambda a: ops.unsorted_segment_sum(a, T([0, 1, 0]), 2),
    lambda a: ops.strided_slice(a, (0, 1), (3, 4), (2, 1)),
    lambda a: ops.sequence_mask(T([1, 2]), 3),
    lambda a: ops.population_count(ops.Cast()(a, np.int32)),
])
def test_graph_mode(fn):
    check_jit(fn, M.astype(np.float32))


def test_arguments_needed_as_constants_are_named_under_graph_mode():
    from sporeling.core.errors import SporelingError
    with pytest.raises(SporelingError, match=r"ops.sequence_mask needs the value of lengths"):
        sx.jit(lambda a: ops.sequence_mask(a))(T([1, 2]))
    np.testing.assert_array_equal(value(sx.jit(lambda a: ops.sequence_mask(a, 3))(T([1, 2]))),
                                  [[True, False, False], [True, True, False]])
    with pytest.raises(SporelingError, match=r"ops.repeat_interleave needs the value of repeats"):
        sx.jit(lambda a, r: ops.repeat_interleave(a, r, 0))(T(M), T([1, 2, 1]))
