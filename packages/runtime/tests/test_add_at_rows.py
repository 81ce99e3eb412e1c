"""``add_at`` by rows (gather's backward): the bincount path equals ``np.add.at`` -- repeated
and negative rows, broadcast updates, float16/32/64 -- and leaves the other cases (integer
results, several index arrays, out-of-range rows) to ``np.add.at``."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from sporeling.runtime.kernels.indexing import OPERAND, add_at


class _Host:
    def allocate(self, shape, dtype, persistent=False):
        return np.empty(shape, dtype)


def _reference(x, updates, *index):
    out = x.copy()
    np.add.at(out, index, updates)
    return out


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 9), cols=st.integers(0, 4), k=st.integers(0, 30),
       dtype=st.sampled_from([np.float16, np.float32, np.float64]), seed=st.integers(0, 99))
def test_rows_equal_np_add_at(n, cols, k, dtype, seed):
    rng = np.random.default_rng(seed)
    shape = (n,) + ((cols,) if cols else ())
    x = rng.standard_normal(shape).astype(dtype)
    rows = rng.integers(-n, n, k)
    updates = rng.standard_normal((k,) + shape[1:]).astype(dtype)
    got = add_at(_Host(), x, updates, rows, key=(OPERAND,))
    tol = {np.float16: 2e-2, np.float32: 1e-5, np.float64: 1e-12}[dtype]
    np.testing.assert_allclose(got, _reference(x, updates, rows), rtol=tol, atol=tol)
    assert got.dtype == dtype


def test_broadcast_updates_and_2d_row_indices():
    x = np.zeros((3, 2))
    rows = np.array([[0, 2], [2, 2]])
    got = add_at(_Host(), x, np.float64(1.5), rows, key=(OPERAND,))
    np.testing.assert_array_equal(got, _reference(x, 1.5, rows))


def test_integer_results_and_out_of_range_rows_take_np_add_at():
    x = np.zeros(4, np.int64)
    got = add_at(_Host(), x, np.array([1, 2, 3]), np.array([0, 0, 3]), key=(OPERAND,))
    np.testing.assert_array_equal(got, [3, 0, 0, 3])
    with pytest.raises(IndexError):
        add_at(_Host(), np.zeros(4), np.ones(1), np.array([4]), key=(OPERAND,))
