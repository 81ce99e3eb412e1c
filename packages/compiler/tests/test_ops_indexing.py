"""Indexing ops against NumPy: random keys, their shapes and gradients, scatters, errors."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from sporeling.compiler import ops
from sporeling.compiler.autodiff import vjp
from sporeling.compiler.ops.indexing import IndexingError, encode_index, index_shape
from sporeling.core import DTypeError, ShapeError

rng = np.random.default_rng(0)
x34 = np.arange(12.0).reshape(3, 4)


@st.composite
def indexed(draw):
    """An array and a random NumPy index of it: ints, slices, None, one Ellipsis, integer
    arrays and boolean masks."""
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=4)))
    x = rng.standard_normal(shape)
    key, dim, ellipsis = [], 0, False
    while dim < len(shape) and len(key) < 5:
        kind = draw(st.sampled_from(["int", "slice", "none", "ellipsis", "array", "mask",
                                     "stop"]))
        n = shape[dim]
        if kind == "stop":
            break
        if kind == "int":
            key.append(draw(st.integers(-n, n - 1)))
        elif kind == "slice":
            ends = st.one_of(st.none(), st.integers(-n - 2, n + 2))
            key.append(slice(draw(ends), draw(ends),
                             draw(st.one_of(st.none(), st.sampled_from([-3, -1, 1, 2])))))
        elif kind == "none":
            key.append(None)
            continue
        elif kind == "ellipsis":
            if ellipsis:
                continue
            ellipsis = True
            key.append(Ellipsis)
            dim = len(shape) - draw(st.integers(0, len(shape) - dim))
            continue
        elif kind == "array":
            ishape = tuple(draw(st.lists(st.integers(1, 3), max_size=2)))
            key.append(rng.integers(-n, n, ishape))
        else:
            m = draw(st.integers(1, len(shape) - dim))
            key.append(rng.random(shape[dim:dim + m]) < 0.5)
            dim += m
            continue
        dim += 1
    return x, tuple(key)


@settings(max_examples=150, deadline=None)
@given(indexed())
def test_getitem_matches_numpy_and_its_gradient_scatter_adds(case):
    x, key = case
    try:
        want = x[key]
    except IndexError:  # arrays that do not broadcast together: we must refuse too
        with pytest.raises(ShapeError):
            ops.getitem(x, key)
        return
    got = ops.getitem(x, key)
    np.testing.assert_array_equal(got, want)
    entries, operands = encode_index(key)
    assert index_shape("getitem", x.shape, entries, operands) == want.shape
    out, fn = vjp(lambda a: ops.getitem(a, key), x)
    ct = rng.standard_normal(want.shape)
    expected = np.zeros_like(x)
    np.add.at(expected, key, ct)
    np.testing.assert_allclose(fn(ct)[0], expected)


def test_basic_indices_give_views():
    assert np.shares_memory(ops.getitem(x34, (slice(None, None, -1), 2)), x34)
    assert np.shares_memory(ops.strided_slice(x34, [2], [0], [-1]), x34)
    assert ops.getitem(x34, ()) is x34


def test_repeated_indices_accumulate_in_the_gradient():
    _, fn = vjp(lambda a: ops.getitem(a, [0, 0, 2, 0]), np.arange(3.0))
    assert fn(np.ones(4))[0].tolist() == [3.0, 0.0, 1.0]


def test_index_operands_may_be_traced_values():
    def f(a, i):
        return ops.getitem(a, (slice(None), i))
    out, fn = vjp(f, x34, np.array([3, 3]))
    np.testing.assert_array_equal(out, x34[:, [3, 3]])
    g, gi = fn(np.ones((3, 2)))
    assert g[:, 3].tolist() == [2.0] * 3 and gi.shape == (2,)


@pytest.mark.parametrize("begin, end, strides", [
    ([0], [3], None), ([-1, 3], [None, 0], [-1, -2]), ([1, -1], [3, -5], [1, -1]),
    ([5, 0], [-10, 4], [-2, 3])])
def test_strided_slice_matches_python_slicing(begin, end, strides):
    key = tuple(slice(b, e, s) for b, e, s in zip(begin, end, strides or [None] * len(begin)))
    np.testing.assert_array_equal(ops.strided_slice(x34, begin, end, strides), x34[key])


def test_slice_takes_sizes_like_mindspore():
    np.testing.assert_array_equal(ops.slice(x34, (1, 1), (2, -1)), x34[1:3, 1:])


def test_add_at_accumulates_and_broadcasts():
    idx = np.array([0, 2, 0])
    want = x34.copy()
    np.add.at(want, idx, 1.5)
    np.testing.assert_array_equal(ops.add_at(x34, idx, 1.5), want)
    assert x34[0, 0] == 0.0  # the input is not mutated
    mask = x34 > 6
    np.testing.assert_array_equal(ops.add_at(x34, mask, -1.0), np.where(mask, x34 - 1, x34))


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_gather_matches_take(axis):
    idx = np.array([[0, -1], [1, 1]])
    np.testing.assert_array_equal(ops.gather(x34, idx, axis), np.take(x34, idx, axis))
    assert ops.index_select is ops.gather


@pytest.mark.parametrize("axis", [0, 1])
def test_take_along_axis_and_scatter_add_match_numpy(axis):
    idx = rng.integers(0, x34.shape[axis], x34.shape)
    np.testing.assert_array_equal(ops.take_along_axis(x34, idx, axis),
                                  np.take_along_axis(x34, idx, axis))
    upd = rng.standard_normal(idx.shape)
    want = x34.copy()
    for pos in np.ndindex(idx.shape):
        target = list(pos)
        target[axis] = idx[pos]
        want[tuple(target)] += upd[pos]
    np.testing.assert_allclose(ops.scatter_add(x34, idx, upd, axis), want)


def test_one_hot_is_zero_outside_the_range():
    got = ops.one_hot(np.array([[1, 3], [-1, 0]]), 3)
    assert got.dtype == np.float32 and got.shape == (2, 2, 3)
    assert got.tolist() == [[[0, 1, 0], [0, 0, 0]], [[0, 0, 0], [1, 0, 0]]]
    assert ops.one_hot(np.array([2]), 3, dtype="int32").dtype == np.int32


@pytest.mark.parametrize("call, error, match", [
    (lambda: ops.getitem(x34, (1, 4)), IndexingError, r"getitem: index out of range.*axis 1"),
    (lambda: ops.getitem(x34, [0, 3]), IndexingError, r"getitem.*\[-3, 3\).*shape \(3, 4\)"),
    (lambda: ops.getitem(x34, (0, 0, 0)), IndexingError, "too many indices"),
    (lambda: ops.getitem(x34, (Ellipsis, 0, Ellipsis)), IndexingError, "Ellipsis"),
    (lambda: ops.getitem(x34, np.ones(4, bool)), IndexingError, r"mask of shape \(3,\)"),
    (lambda: ops.getitem(x34, np.array([0.5])), DTypeError, "integers or booleans"),
    (lambda: ops.getitem(x34, "a"), IndexingError, "unsupported index"),
    (lambda: ops.gather(x34, np.array([4]), 1), IndexingError, r"gather.*axis 1"),
    (lambda: ops.gather(x34, np.array([0]), 2), ShapeError, "gather: axis out of range"),
    (lambda: ops.take_along_axis(x34, np.zeros((2, 4), int), 1), ShapeError,
     "take_along_axis: indices do not fit"),
    (lambda: ops.scatter_add(x34, np.zeros((3, 1), int), np.ones((3, 2)), 1), ShapeError,
     "scatter_add: updates and indices differ"),
    (lambda: ops.add_at(x34, 0, np.ones(3)), ShapeError, "add_at: updates do not broadcast"),
    (lambda: ops.strided_slice(x34, [0], [1], [0]), IndexingError, "zero step"),
])
def test_errors_name_the_op(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_indexing_errors_are_index_errors():
    with pytest.raises(IndexError):
        ops.getitem(x34, 5)
