"""Shape ops against NumPy: results, views, pool memory and errors."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from sporeling.compiler import ops
from sporeling.core import ShapeError
from sporeling.runtime.memory import owner_of

rng = np.random.default_rng(0)
x234 = rng.standard_normal((2, 3, 4)).astype(np.float32)
shapes = st.lists(st.integers(1, 4), min_size=1, max_size=4).map(tuple)


def test_views_share_memory_with_their_input():
    for view in (ops.reshape(x234, (6, 4)), ops.transpose(x234), ops.flip(x234, 1),
                 ops.permute(x234, 2, 0, 1), ops.expand_dims(x234, 1), ops.squeeze(x234[:1]),
                 *ops.split(x234, 2, axis=2)):
        assert np.shares_memory(view, x234)


def test_copies_are_written_into_pool_memory():
    for result in (ops.concat([x234, x234], 1), ops.tile(x234, 2), ops.repeat(x234, 2, 0),
                   ops.roll(x234, 1, 2), ops.pad(x234, 1), ops.pad(x234, 1, mode="reflect")):
        assert owner_of(result) is not None


def test_permute_expand_dims_squeeze_stack():
    assert ops.permute(x234, (1, 2, 0)).shape == (3, 4, 2)
    np.testing.assert_array_equal(ops.expand_dims(x234, (0, 3)), np.expand_dims(x234, (0, 3)))
    y = np.zeros((1, 3, 1, 2))
    assert ops.squeeze(y).shape == (3, 2) and ops.squeeze(y, -2).shape == (1, 3, 2)
    np.testing.assert_array_equal(ops.stack([x234, x234 + 1], axis=2),
                                  np.stack([x234, x234 + 1], axis=2))


@settings(max_examples=40, deadline=None)
@given(shape=shapes, data=st.data())
def test_split_then_concat_round_trips(shape, data):
    x = rng.standard_normal(shape)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    n = shape[axis]
    points = sorted(data.draw(st.lists(st.integers(0, n), max_size=3)))
    parts = ops.split(x, points, axis)
    for got, want in zip(parts, np.split(x, points, axis), strict=True):
        np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(ops.concat(list(parts), axis), x)


def test_split_into_equal_sections_and_concat_promotes():
    a, b, c = ops.split(np.arange(6), 3)
    assert c.tolist() == [4, 5]
    out = ops.concat([np.ones(2, np.float32), np.arange(2)])
    assert out.dtype == np.float32 and out.tolist() == [1, 1, 0, 1]


@settings(max_examples=40, deadline=None)
@given(shape=shapes, data=st.data())
def test_tile_repeat_flip_roll_match_numpy(shape, data):
    x = rng.standard_normal(shape)
    reps = tuple(data.draw(st.lists(st.integers(0, 3), min_size=1, max_size=5)))
    np.testing.assert_array_equal(ops.tile(x, reps), np.tile(x, reps))
    axis = data.draw(st.one_of(st.none(), st.integers(-len(shape), len(shape) - 1)))
    k = data.draw(st.integers(0, 3))
    np.testing.assert_array_equal(ops.repeat(x, k, axis), np.repeat(x, k, axis))
    np.testing.assert_array_equal(ops.flip(x, axis), np.flip(x, axis))
    shift = data.draw(st.integers(-7, 7))
    np.testing.assert_array_equal(ops.roll(x, shift, axis), np.roll(x, shift, axis))
    if axis is not None:
        np.testing.assert_array_equal(ops.roll(x, (shift, 2), (axis, axis)),
                                      np.roll(x, (shift, 2), (axis, axis)))


@settings(max_examples=40, deadline=None)
@given(shape=shapes, data=st.data())
def test_pad_matches_numpy(shape, data):
    x = rng.standard_normal(shape)
    widths = [tuple(data.draw(st.integers(0, n - 1)) for _ in range(2)) for n in shape]
    np.testing.assert_array_equal(ops.pad(x, widths, mode="reflect"),
                                  np.pad(x, widths, mode="reflect"))
    np.testing.assert_array_equal(ops.pad(x, widths, value=2.5),
                                  np.pad(x, widths, constant_values=2.5))


def test_pad_width_forms():
    x = np.arange(6).reshape(2, 3)
    np.testing.assert_array_equal(ops.pad(x, 1), np.pad(x, 1))
    np.testing.assert_array_equal(ops.pad(x, (1, 2)), np.pad(x, (1, 2)))
    assert ops.pad(x, 0) is x


@pytest.mark.parametrize("call, match", [
    (lambda: ops.concat([np.ones((2, 3)), np.ones((3, 3))], axis=1),
     r"concat.*except on axis 1.*\(2, 3\), \(3, 3\)"),
    (lambda: ops.concat([np.ones((2, 3)), np.ones(3)]), r"concat"),
    (lambda: ops.concat([], 0), "nothing to concatenate"),
    (lambda: ops.split(np.ones((2, 5)), 2, axis=1), r"split.*divisor of 5"),
    (lambda: ops.split(np.ones(5), [3, 1]), r"split.*non-decreasing"),
    (lambda: ops.split(np.ones(5), 1, axis=1), r"split: axis out of range"),
    (lambda: ops.squeeze(np.ones((1, 2)), 1), r"squeeze.*axis 1 of shape \(1, 2\)"),
    (lambda: ops.expand_dims(np.ones(2), 3), "expand_dims: axis out of range"),
    (lambda: ops.stack([np.ones(2), np.ones(3)]), r"stack: shapes differ"),
    (lambda: ops.repeat(np.ones(2), -1), "repeat: bad repeat count"),
    (lambda: ops.tile(np.ones(2), (-1,)), "tile: bad repetitions"),
    (lambda: ops.roll(np.ones(2), (1, 2), 0), "roll: shift and axis"),
    (lambda: ops.pad(np.ones(3), 3, mode="reflect"), r"pad: reflect padding wider"),
    (lambda: ops.pad(np.ones(3), -1), "pad: bad pad widths"),
    (lambda: ops.pad(np.ones(3), 1, mode="edge"), "pad: unknown pad mode"),
    (lambda: ops.flip(np.ones(3), 1), "flip: axis out of range"),
])
def test_errors_name_the_op_and_shapes(call, match):
    with pytest.raises(ShapeError, match=match):
        call()
