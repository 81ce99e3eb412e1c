"""``getitem`` at an index operand (a schedule's learning rate at the step count): a
generated copy of the row, as NumPy's kernel gives it; an index out of range is NumPy's
error; other keys are the provider below's views."""
import numpy as np
import pytest

from sporeling.runtime import get_backend

TVM, NUMPY = get_backend("tvm"), get_backend("numpy")


@pytest.mark.parametrize("shape, dtype", [((7,), np.float32), ((5, 3), np.float64),
                                          ((4, 2, 3), np.int64), ((1,), np.int32)])
@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
def test_a_row_at_an_index_operand_is_numpys(shape, dtype, index_dtype):
    x = np.arange(np.prod(shape)).reshape(shape).astype(dtype)
    for i in range(-shape[0], shape[0]):
        index = np.array(i, index_dtype)
        got = TVM.kernel("getitem")(TVM, x, index, key=("operand",))
        want = NUMPY.kernel("getitem")(NUMPY, x, index, key=("operand",))
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
        assert not np.shares_memory(got, x)  # a copy: a native step reads it anew


@pytest.mark.parametrize("i", [7, -8, 100])
def test_an_index_out_of_range_is_numpys_error(i):
    x = np.arange(7, dtype=np.float32)
    with pytest.raises(IndexError) as got:
        TVM.kernel("getitem")(TVM, x, np.array(i), key=("operand",))
    with pytest.raises(IndexError) as want:
        NUMPY.kernel("getitem")(NUMPY, x, np.array(i), key=("operand",))
    assert str(got.value) == str(want.value)


def test_other_keys_are_views_from_the_provider_below():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    y = TVM.kernel("getitem")(TVM, x, key=(1,))
    assert np.shares_memory(y, x)
    np.testing.assert_array_equal(y, x[1])
    rows = TVM.kernel("getitem")(TVM, x, np.array([2, 0]), key=("operand",))
    np.testing.assert_array_equal(rows, x[[2, 0]])
