"""``add_at`` at a basic index (an RNN's last step's gradient, ``x[:, -1]``): a generated
loop giving NumPy's kernel's result; index arrays and other dtypes stay the provider
below's."""
import numpy as np
import pytest

from sporeling.runtime import get_backend

from sporeling.tvm_backend import kernels

TVM, NUMPY = get_backend("tvm"), get_backend("numpy")

KEYS = [((1, 32, 64), ((None, None, None), -1)),     # an LSTM's last step
        ((5, 6), ((1, 5, 2),)),                        # a strided slice
        ((5, 6), (2,)),                                # one row
        ((4, 7, 3), ((None, None, -2), (1, 6, 1))),    # a reversed slice
        ((3, 4), (-1, (None, None, -1))),              # a negative int, a reversed axis
        ((6,), ((None, None, None),))]                 # everything


def _generated():
    return sum(1 for chain, fn in kernels._COMPILED.items()
               if getattr(chain, "kind", None) == "add_at" and fn is not None)


@pytest.mark.parametrize("shape, key", KEYS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_basic_key_is_numpys_result(shape, key, dtype):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape).astype(dtype)
    selected = x[tuple(slice(*k) if isinstance(k, tuple) else k for k in key)]
    u = rng.standard_normal(selected.shape).astype(dtype)
    before = _generated()
    got = TVM.kernel("add_at")(TVM, x, u, key=key)
    want = NUMPY.kernel("add_at")(NUMPY, x, u, key=key)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    assert _generated() >= max(before, 1)  # generated, not NumPy's


def test_index_arrays_run_the_provider_below():
    x = np.zeros((5, 3), np.float32)
    rows, u = np.array([0, 2, 0]), np.ones((3, 3), np.float32)
    got = TVM.kernel("add_at")(TVM, x, u, rows, key=("operand",))
    np.testing.assert_array_equal(got, NUMPY.kernel("add_at")(NUMPY, x, u, rows,
                                                              key=("operand",)))
