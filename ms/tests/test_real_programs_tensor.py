"""Issue 22: ``ms.tensor``, ``Tensor.from_numpy``, ``Tensor(init=..., shape=, dtype=)``
with ``init_data()``. Expected values recorded from MindSpore 2.10 (CPU)."""
import numpy as np
import pytest

import sporeling.ms as ms
from sporeling.core import SporelingError
from sporeling.ms.common.initializer import Normal, One


def test_tensor_function_dtypes_as_2_10():
    # 2.10: tensor([1.5, 2]) Float32, tensor(3) Int64, tensor(True) Bool,
    # tensor(np.float64(2.0)) Float64, tensor(2.5) Float32, tensor([1., 2.], float16) Float16
    cases = [([1.5, 2], ms.float32), (3, ms.int64), (True, ms.bool_),
             (np.float64(2.0), ms.float64), (2.5, ms.float32), ([1, 2, 3], ms.int64)]
    for data, dtype in cases:
        t = ms.tensor(data)
        assert isinstance(t, ms.Tensor) and t.dtype == dtype, (data, t.dtype)
    assert ms.tensor([1.0, 2.0], ms.float16).dtype == ms.float16
    assert ms.tensor([1, 2], dtype=ms.float32).asnumpy().tolist() == [1.0, 2.0]
    assert ms.tensor([1.0], device="CPU", const_arg=True).shape == (1,)
    assert "tensor" in ms.__all__


def test_from_numpy_shares_memory():
    # 2.10: Tensor.from_numpy(a); a[0] = 9 -> the tensor shows 9 (same memory)
    a = np.arange(3, dtype=np.float32)
    t = ms.Tensor.from_numpy(a)
    a[0] = 9
    assert t.asnumpy().tolist() == [9.0, 1.0, 2.0]
    assert ms.from_numpy(np.ones(2, np.int8)).dtype == ms.int8  # ms.from_numpy too
    assert ms.Tensor.from_numpy(np.arange(3, dtype=np.int32)).dtype == ms.int32
    np.testing.assert_allclose((t + 1).asnumpy(), [10.0, 2.0, 3.0])


def test_tensor_init_and_init_data():
    # 2.10: Tensor(init=One(), shape=(2, 3), dtype=float32).init_data() -> ones; init_data
    # returns the tensor itself
    t = ms.Tensor(init=One(), shape=(2, 3), dtype=ms.float32)
    assert t.init_data() is t and not t.has_init
    assert t.shape == (2, 3) and t.dtype == ms.float32
    np.testing.assert_array_equal(t.asnumpy(), np.ones((2, 3)))
    ms.set_seed(3)
    n = ms.tensor(init=Normal(0.5), shape=(400,), dtype=ms.float16).init_data()
    assert n.dtype == ms.float16 and 0.3 < float(n.asnumpy().std()) < 0.7
    assert ms.Tensor(init=One(), shape=(2,)).dtype == ms.float32
    p = ms.Parameter(ms.Tensor(init=One(), shape=(2,), dtype=ms.float32), name="w")
    np.testing.assert_array_equal(p.asnumpy(), [1.0, 1.0])
    with pytest.raises(SporelingError):
        ms.Tensor(init=One(), dtype=ms.float32)  # no shape
    with pytest.raises(SporelingError):
        ms.Tensor([1.0], init=One(), shape=(1,))


def test_uint32_tensors_keep_their_dtype():
    t = ms.tensor(np.array([1, 2 ** 32 - 1], np.uint32))
    assert t.dtype == ms.uint32 and t.asnumpy().tolist() == [1, 2 ** 32 - 1]
