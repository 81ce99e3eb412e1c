"""The hot path of ufunc kernels (``from_ufunc``): operands of one shape and dtype, the
output from the pool. It must give NumPy's values and dtype for every ufunc-backed
primitive, on the first call (which fills the dtype cache) and the next (which uses it),
and warn about nothing (NumPy deprecates a positional ``out`` for maximum and minimum)."""
import warnings

import numpy as np
import pytest

from sporeling.runtime import MemoryPool, NumpyBackend
from sporeling.runtime.kernels import NUMPY_KERNELS
from sporeling.runtime.kernels.elementwise import UFUNCS
from sporeling.runtime.memory import owner_of


def operand(seed):
    # positive floats: in the domain of every one of them (log, sqrt, pow, logical ops)
    return np.random.default_rng(seed).uniform(0.5, 2.0, (3, 4)).astype(np.float32)


@pytest.mark.parametrize("name", sorted(UFUNCS))
def test_ufunc_kernel_fast_path_matches_numpy_and_warns_nothing(name):
    ufunc = UFUNCS[name]
    cpu = NumpyBackend(pool=MemoryPool(block_size="1MB"))
    inputs = [cpu.from_numpy(operand(i)) for i in range(ufunc.nin)]
    expected = ufunc(*[np.asarray(x) for x in inputs])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(2):  # the first call fills the dtype cache, the second uses it
            got = NUMPY_KERNELS[name](cpu, *inputs)
            assert owner_of(got) is not None and owner_of(got).pool is cpu.pool
            assert got.dtype == expected.dtype and got.shape == expected.shape
            np.testing.assert_array_equal(got, expected)


def test_a_kernel_given_the_wrong_number_of_inputs_says_so():
    cpu = NumpyBackend(pool=MemoryPool(block_size="1MB"))
    x = cpu.from_numpy(np.ones(3, np.float32))
    with pytest.raises(TypeError, match="add takes 2 inputs, got 1"):
        NUMPY_KERNELS["add"](cpu, x)


BINARY = sorted(n for n, u in UFUNCS.items() if u.nin == 2)


@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("shapes", [((3, 4), ()), ((), (3, 4)), ((), ())])
def test_binary_kernel_with_a_0d_operand_broadcasts_like_numpy(name, shapes):
    # an op promotes a Python scalar to a 0-d array of the tensor's dtype: the fast path
    # takes a 0-d second operand; a 0-d first one goes the general way
    ufunc = UFUNCS[name]
    cpu = NumpyBackend(pool=MemoryPool(block_size="1MB"))
    a, b = (cpu.from_numpy(operand(i)[(0,) * (2 - len(s))].reshape(s))
            for i, s in enumerate(shapes))
    expected = ufunc(np.asarray(a), np.asarray(b))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(2):
            got = NUMPY_KERNELS[name](cpu, a, b)
            assert owner_of(got) is not None and owner_of(got).pool is cpu.pool
            assert got.dtype == expected.dtype and got.shape == expected.shape
            np.testing.assert_array_equal(got, expected)
