"""Tensor indexing against NumPy (hypothesis draws the keys), setitem, gradients."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import sporeling.expression as sx
from sporeling.core import SporelingError

X = np.arange(60, dtype=np.float32).reshape(3, 4, 5)


@pytest.mark.parametrize("key", [
    1, -1, (0, 2), (slice(None), 1), (slice(1, None, 2), slice(None, None, -1)), None,
    (None, 0, None), Ellipsis, (Ellipsis, 2), (0, Ellipsis, slice(1, 3)),
    np.array([2, 0, 2]), (slice(None), np.array([1, 3])), X > 30, (X[:, :, 0] > 10),
    (np.array([0, 2]), np.array([1, 3])), [0, 1],
])
def test_getitem_matches_numpy(key):
    got = sx.Tensor(X)[key]
    want = X[key]
    assert isinstance(got, sx.Tensor) and got.shape == want.shape
    np.testing.assert_array_equal(got.asnumpy(), want)


def test_tensor_keys():
    t = sx.Tensor(X)
    np.testing.assert_array_equal(t[sx.Tensor([2, 0])].asnumpy(), X[[2, 0]])
    np.testing.assert_array_equal(t[t > 50.0].asnumpy(), X[X > 50])
    np.testing.assert_array_equal(t[sx.Tensor(1)].asnumpy(), X[1])


@st.composite
def keys(draw):
    """Per consumed axis an int, a slice or (once) an integer array; ``None`` and ``...``
    sprinkled in."""
    parts, used_array = [], False
    for size in X.shape[:draw(st.integers(0, 3))]:
        kind = draw(st.sampled_from(["int", "slice", "array"]))
        if kind == "int":
            parts.append(draw(st.integers(-size, size - 1)))
        elif kind == "array" and not used_array:
            used_array = True
            parts.append(draw(hnp.arrays(np.int64, st.integers(1, 4),
                                         elements=st.integers(-size, size - 1))))
        else:
            bound = st.none() | st.integers(-size - 1, size + 1)
            parts.append(slice(draw(bound), draw(bound),
                               draw(st.none() | st.sampled_from([1, 2, 3, -1, -2]))))
        if draw(st.booleans()):
            parts.append(None)
    if draw(st.booleans()):
        parts.insert(draw(st.integers(0, len(parts))), Ellipsis)
    return tuple(parts)


@settings(max_examples=80, deadline=None)
@given(keys())
def test_random_keys_match_numpy(key):
    np.testing.assert_array_equal(sx.Tensor(X)[key].asnumpy(), X[key])


def test_getitem_is_differentiable_and_accumulates_repeats():
    g = sx.grad(lambda x: (x[np.array([0, 0, 2])] * 2.0).sum() + x[1, 1:3].sum())(
        sx.Tensor(np.ones((3, 4), np.float32)))
    want = np.zeros((3, 4), np.float32)
    want[0] += 4.0
    want[2] += 2.0
    want[1, 1:3] += 1.0
    np.testing.assert_array_equal(g.asnumpy(), want)


def test_setitem_writes_in_place_with_casting():
    t = sx.Tensor(np.zeros((2, 3), np.float32))
    data = t.asnumpy()
    t[0] = 1
    t[1, 1:] = sx.Tensor([2.0, 3.0])
    t[sx.Tensor([False, True]), 0] = 7.5
    assert t.tolist() == [[1.0, 1.0, 1.0], [7.5, 2.0, 3.0]] and t.asnumpy() is data
    i = sx.Tensor([1, 2, 3])
    i[0] = 9.7
    assert i.tolist() == [9, 2, 3]


def test_setitem_refuses_tensors_grad_is_recording():
    def f(x):
        y = x * 2.0
        y[0] = 0.0
        return y.sum()
    with pytest.raises(SporelingError, match="in-place assignment is not differentiable"):
        sx.grad(f)(sx.Tensor([1.0, 2.0]))

    def g(x):
        buf = sx.Tensor(np.zeros(2, np.float32))
        buf[0] = x[0]  # the value is recorded
        return (buf * x).sum()
    with pytest.raises(SporelingError, match="the value written"):
        sx.grad(g)(sx.Tensor([1.0, 2.0]))

    def h(x):
        buf = sx.Tensor(np.zeros(2, np.float32))
        buf[0] = x.detach()[0]  # fine: a constant
        return (buf * x).sum()
    assert sx.grad(h)(sx.Tensor([3.0, 2.0])).tolist() == [3.0, 0.0]


def test_iteration_is_over_the_first_axis_and_differentiable():
    rows = list(sx.Tensor(X[0]))
    assert len(rows) == 4 and all(isinstance(r, sx.Tensor) for r in rows)
    g = sx.grad(lambda x: sum(r.sum() * i for i, r in enumerate(x)))(sx.Tensor(X[0]))
    np.testing.assert_array_equal(g.asnumpy(), np.repeat(np.arange(4.0), 5).reshape(4, 5))
