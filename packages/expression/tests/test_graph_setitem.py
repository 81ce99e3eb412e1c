"""``t[key] = value`` on a traced tensor (Graph mode): the tensor takes a new value
(``ops.set_at``), equal to what NumPy's in-place write gives; the caller's tensor is not
written; a Parameter written so is updated after the run; positions unknown while tracing
are refused with what to use instead."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.compiler import ops as cops
from sporeling.core import SporelingError
from sporeling.expression import ops


@pytest.mark.parametrize("key, value", [
    ((slice(0, 1),), -1.0), ((1, slice(None, None, 2)), 7.5), ((Ellipsis, 0), np.array([1, 2])),
    ((np.array([0, 1]), np.array([2, 0])), np.array([9.0, 8.0])),
    ((np.array([[True, False, True], [False, True, False]]),), 3.0)])
def test_a_traced_setitem_equals_numpys_in_place_write(key, value):
    x = np.arange(6, dtype=np.float32).reshape(2, 3) + 0.5

    @sx.jit
    def f(t):
        t[key] = value
        return t * 1
    want = x.copy()
    want[key] = value
    arg = sx.Tensor(x)
    np.testing.assert_array_equal(f(arg).asnumpy(), want)
    np.testing.assert_array_equal(arg.asnumpy(), x)           # the caller's tensor: unwritten


def test_a_traced_mask_and_its_gradient():
    x = sx.Tensor(np.array([-1.0, 2.0, -3.0, 4.0], np.float32))

    def f(t):
        t = t * 2
        t[t < 0] = 0.0
        return (t * t).sum()
    eager_grad = sx.grad(lambda t: (ops.relu(t * 2) ** 2).sum())(x)
    np.testing.assert_allclose(sx.jit(sx.grad(f))(x).asnumpy(), eager_grad.asnumpy())


def test_a_parameter_written_by_item_is_updated_after_the_run():
    p = sx.Parameter(np.zeros(4, np.float32), name="p")

    @sx.jit
    def f(i):
        p[1:3] = i
        return p.sum()
    assert float(f(sx.Tensor(np.float32(2.0))).asnumpy()) == 4.0
    np.testing.assert_array_equal(p.asnumpy(), [0, 2, 2, 0])


def test_positions_unknown_while_tracing_or_written_twice_are_refused():
    @sx.jit
    def by_index(t, i):
        t[i] = 0.0
        return t
    with pytest.raises(SporelingError, match="traced positions"):
        by_index(sx.Tensor(np.ones(3, np.float32)), sx.Tensor(np.array([1])))
    with pytest.raises(SporelingError, match="more than once"):
        cops.set_at(np.ones(3, np.float32), np.array([1, 1]), 0.0)
