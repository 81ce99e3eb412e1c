"""The quantisation primitives: kernels against float references, int32 accumulation,
clear errors, batching, and compiled graphs."""
import numpy as np
import pytest

from sporeling.compiler import ops
from sporeling.compiler.ir import evaluate, make_graph
from sporeling.compiler.pipeline import compile_graph
from sporeling.compiler.quant import dequantize, qconv2d, qmatmul, quantize
from sporeling.compiler.transforms import vmap
from sporeling.core import DTypeError, ShapeError

rng = np.random.default_rng(0)


def test_quantize_rounds_half_to_even_and_saturates_like_onnx():
    x = np.float32([-300, -1.5, -0.5, 0.5, 1.5, 2.5, 300])
    q = quantize(x, np.float32(1.0), np.int8(3))
    assert q.dtype == np.int8
    assert q.tolist() == [-128, 1, 3, 3, 5, 5, 127]
    u = quantize(x, np.float32(1.0), np.uint8(128))
    assert u.dtype == np.uint8 and u.tolist() == [0, 126, 128, 128, 130, 130, 255]


def test_dequantize_inverts_quantize_within_half_a_step():
    x = rng.uniform(-2, 2, (5, 7)).astype(np.float32)
    scale, zp = np.float32(4 / 255), np.int8(-1)
    back = dequantize(quantize(x, scale, zp), scale, zp)
    assert back.dtype == np.float32
    assert np.abs(back - x).max() <= scale / 2 + 1e-7


def test_per_channel_scales_apply_along_their_axis():
    x = rng.standard_normal((2, 3, 4)).astype(np.float32)
    scale = np.float32([0.1, 0.01, 1.0])
    q = quantize(x, scale, np.zeros(3, np.int8), axis=1)
    want = np.clip(np.rint(x / scale[None, :, None]), -128, 127)
    np.testing.assert_array_equal(q, want)
    np.testing.assert_allclose(dequantize(q, scale, np.zeros(3, np.int8), axis=-2),
                               want * scale[None, :, None], rtol=1e-6)


def test_qmatmul_accumulates_exactly_in_int32_where_int8_would_overflow():
    a = np.full((2, 300), 127, np.int8)
    b = np.full((300, 3), -128, np.int8)
    out = qmatmul(a, b, a_zero_point=-128)
    assert out.dtype == np.int32
    assert (out == 255 * -128 * 300).all()  # far outside int16, exact


@pytest.mark.parametrize("stride, padding, groups", [((1, 1), ((1, 1), (1, 1)), 1),
                                                      ((2, 1), ((0, 1), (2, 0)), 2)])
def test_qconv2d_equals_the_float_convolution_of_the_centred_values(stride, padding, groups):
    x = rng.integers(-128, 128, (2, 4, 6, 5), dtype=np.int8)
    w = rng.integers(-127, 128, (6, 4 // groups, 3, 3), dtype=np.int8)
    zp = -7
    got = qconv2d(x, w, x_zero_point=zp, stride=stride, padding=padding, groups=groups)
    centred = np.pad(x.astype(np.float64) - zp, ((0, 0), (0, 0)) + padding)  # pads real 0s
    want = ops.nn.conv2d(centred, w.astype(np.float64), stride=stride, groups=groups)
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, want.astype(np.int64))


def test_errors_name_the_op_what_was_expected_and_what_came():
    with pytest.raises(DTypeError, match=r"qmatmul: a must be int8; got float32"):
        qmatmul(np.ones((2, 2), np.float32), np.ones((2, 2), np.int8))
    with pytest.raises(ShapeError, match=r"quantize: a per-channel scale .*expected shape "
                                         r"\(3,\) for axis 1 of \(2, 3\).*got \(2,\)"):
        quantize(np.ones((2, 3), np.float32), np.ones(2, np.float32), np.zeros(2, np.int8),
                 axis=1)
    with pytest.raises(ShapeError, match="per-tensor scale is a scalar"):
        quantize(np.ones(3, np.float32), np.ones(3, np.float32), np.zeros(3, np.int8))
    with pytest.raises(DTypeError, match="zero point has the quantised value's dtype"):
        dequantize(np.ones(3, np.int32), np.float32(1), np.int8(0))
    with pytest.raises(ShapeError, match=r"qconv2d takes .*got x \(1, 3, 4, 4\), w \(2, 2"):
        qconv2d(np.ones((1, 3, 4, 4), np.int8), np.ones((2, 2, 1, 1), np.int8))


def test_vmap_of_quantize_keeps_the_channel_axis_of_each_example():
    x = rng.standard_normal((5, 3, 4)).astype(np.float32)   # batch of (3, 4) examples
    scale, zp = np.float32([0.1, 0.2, 0.3, 0.4]), np.zeros(4, np.int8)
    per_example = np.stack([quantize(e, scale, zp, axis=1) for e in x])
    got = vmap(lambda e: quantize(e, scale, zp, axis=1), in_axes=0)(x)
    np.testing.assert_array_equal(got, per_example)
    back = vmap(lambda q: dequantize(q, scale, zp, axis=-1), in_axes=1)(
        np.moveaxis(per_example, 0, 1))
    np.testing.assert_allclose(back, per_example * scale, rtol=1e-6)


def test_integer_results_are_not_differentiable():
    from sporeling.compiler import primitives
    names = ("quantize", "dequantize", "qconv2d", "qmatmul")
    assert not any(primitives()[n].differentiable for n in names)


def test_a_compiled_graph_runs_the_int8_kernels():
    w = rng.integers(-127, 128, (5, 3), dtype=np.int8)

    def f(x):
        q = quantize(x, np.float32(0.05), np.int8(-4))
        return dequantize(qmatmul(q, w, a_zero_point=-4), np.float32(0.05), np.int32(0))
    x = rng.standard_normal((2, 5)).astype(np.float32)
    g = make_graph(f, x)
    np.testing.assert_array_equal(compile_graph(g)(x)[0], evaluate(g, x)[0])
    np.testing.assert_allclose(evaluate(g, x)[0], x @ w, atol=0.05 * np.abs(w).sum(0).max())
