"""fake_quant: the quantise-dequantise staircase with a straight-through gradient
(its finite-difference check is in grad_cases/quant.py)."""
import numpy as np
import pytest

from sporeling.compiler import ops
from sporeling.compiler.autodiff import grad
from sporeling.compiler.ir import evaluate, make_graph
from sporeling.compiler.pipeline import compile_graph
from sporeling.compiler.quant import dequantize, fake_quant, quantize
from sporeling.compiler.testing import GradientCheckError, check_grads
from sporeling.compiler.transforms import vmap
from sporeling.core import DTypeError, SporelingError

rng = np.random.default_rng(0)


def test_forward_equals_quantize_then_dequantize():
    x = rng.uniform(-3, 3, (4, 5)).astype(np.float32)
    want = dequantize(quantize(x, np.float32(0.02), np.int8(-10)), np.float32(0.02),
                      np.int8(-10))
    got = fake_quant(x, scale=0.02, zero_point=-10)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)


def test_gradient_passes_straight_through_inside_the_range_and_stops_outside():
    x = np.float64([-1.5, -0.3, 0.0, 0.04, 0.6, 0.71, 2.0])   # range [-0.8, 0.7]
    g = grad(lambda x: ops.sum(fake_quant(x, scale=0.1, zero_point=0, qmin=-8, qmax=7)))(x)
    assert g.tolist() == [0, 1, 1, 1, 1, 0, 0]


def test_a_fine_grid_check_passes_and_a_naive_one_fails():
    x = [rng.uniform(-2.5, 2.5, (3, 4))]
    grid = dict(scale=1e-4, qmin=-32768, qmax=32767)
    check_grads(lambda x: fake_quant(x, **grid), x, eps=1e-2, rtol=3e-2, atol=1e-2)
    with pytest.raises(GradientCheckError):  # at eps << step the staircase is flat: not the STE
        check_grads(lambda x: fake_quant(x, scale=0.1, qmin=-128, qmax=127), x, order=1)


def test_graph_mode_vmap_and_errors():
    x = rng.uniform(-1, 1, (3, 4)).astype(np.float32)
    f = lambda x: fake_quant(x, scale=0.05)  # noqa: E731
    g = make_graph(f, x)
    np.testing.assert_array_equal(compile_graph(g)(x)[0], f(x))
    np.testing.assert_array_equal(evaluate(g, x)[0], f(x))
    np.testing.assert_array_equal(vmap(f, in_axes=1)(x), f(x).T)
    with pytest.raises(DTypeError, match="fake_quant takes a float value; got int32"):
        fake_quant(np.ones(3, np.int32), scale=0.1)
    with pytest.raises(SporelingError, match=r"bad quantisation grid.*got scale=0"):
        fake_quant(x, scale=0)
