"""Primitive classes refuse an axis outside [-ndim, ndim) instead of wrapping it round
(`ops.ReduceSum()(x, 5)` on a 2-d tensor summed over axis 1)."""
import numpy as np
import pytest

import sporeling.ms as ms
from sporeling.core import SporelingError

X = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))


@pytest.mark.parametrize("cls", ["ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin",
                                 "ReduceProd"])
@pytest.mark.parametrize("axis", [5, -3, (0, 2), "a", True, 1.5])
def test_reductions_refuse_a_bad_axis(cls, axis):
    with pytest.raises(SporelingError, match=f"ops.{cls}: bad axis"):
        getattr(ms.ops, cls)()(X, axis)


def test_reductions_keep_good_axes():
    np.testing.assert_array_equal(ms.ops.ReduceSum()(X, -1).asnumpy(), [3, 12])
    np.testing.assert_array_equal(ms.ops.ReduceMax(keep_dims=True)(X, (0, 1)).asnumpy(),
                                  [[5]])


@pytest.mark.parametrize("make, call", [
    (lambda: ms.ops.Argmax(axis=2), lambda op: op(X)),
    (lambda: ms.ops.CumSum(), lambda op: op(X, 2)),
    (lambda: ms.ops.Split(axis=-3, output_num=1), lambda op: op(X))])
def test_other_axis_taking_classes_refuse_it_too(make, call):
    with pytest.raises(SporelingError, match="bad axis"):
        call(make())
