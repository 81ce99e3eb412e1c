"""16-bit numerics on NumPy: contractions computed in float32 and rounded once, sums
accumulated in float32."""
import numpy as np
import pytest

from sporeling.compiler import ops
from sporeling.core import dtypes
from sporeling.core.testing import run_doctests

RNG = np.random.default_rng(0)


@pytest.mark.parametrize("low", [dtypes.float16, dtypes.bfloat16], ids=["f16", "bf16"])
def test_contractions_return_the_low_dtype_rounded_from_float32(low):
    a = RNG.standard_normal((16, 32)).astype(low)
    b = RNG.standard_normal((32, 8)).astype(low)
    exact = a.astype(np.float32) @ b.astype(np.float32)
    for out in (ops.matmul(a, b), ops.einsum("ij,jk->ik", a, b)):
        assert out.dtype == low
        np.testing.assert_array_equal(out, exact.astype(low))
    x = RNG.standard_normal((2, 3, 6, 6)).astype(low)
    w = RNG.standard_normal((4, 3, 3, 3)).astype(low)
    y = ops.conv2d(x, w)
    ref = ops.conv2d(x.astype(np.float32), w.astype(np.float32))
    assert y.dtype == low
    np.testing.assert_array_equal(y, ref.astype(low))


@pytest.mark.parametrize("low", [dtypes.float16, dtypes.bfloat16], ids=["f16", "bf16"])
def test_reductions_accumulate_in_float32(low):
    ones = np.ones(10_000, low)
    total = ops.sum(ones)
    assert total.dtype == low
    # NumPy alone stops at 256 in bfloat16 (and 2048 in float16); float32 accumulation
    # gives 10,000 rounded once: exact in float16, 9984 (the nearest) in bfloat16
    assert float(total) == float(np.array(10_000, np.float32).astype(low))
    assert float(np.sum(np.ones(10_000, dtypes.bfloat16))) == 256
    assert float(ops.mean(ones)) == 1.0
    assert float(ops.cumsum(ones, 0)[-1]) == float(total)
    v = RNG.standard_normal(4096).astype(low)
    np.testing.assert_allclose(float(ops.var(v)), np.var(v.astype(np.float32)), rtol=1e-2)


def test_docstring_examples_run():
    failed, attempted = run_doctests("sporeling.amp")
    assert failed == 0 and attempted > 0
