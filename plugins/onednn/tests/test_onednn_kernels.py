"""oneDNN's convolution and pooling kernels against NumPy's, at the sizes models use."""
import logging

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from sporeling.runtime import get_backend

from sporeling.onednn import plan as plan_module
from sporeling.onednn.lib import OneDnnError

ONEDNN, NUMPY = get_backend("onednn"), get_backend("numpy")
RNG = np.random.default_rng(0)


def close(got, want):
    """Equal to float32 rounding relative to the values' magnitude."""
    scale = max(float(np.abs(want).max()), 1.0)
    np.testing.assert_allclose(got, want, rtol=0, atol=2e-6 * scale * np.sqrt(want.size))


def both(primitive, *inputs, **params):
    return ONEDNN.run(primitive, *inputs, **params), NUMPY.run(primitive, *inputs, **params)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 3), c=st.sampled_from([1, 3, 8]), o=st.sampled_from([2, 8, 16]),
       k=st.integers(1, 5), stride=st.integers(1, 3), pad=st.integers(0, 2),
       dilation=st.integers(1, 2), groups=st.sampled_from([1, 2]), hw=st.integers(6, 12))
def test_convolution_forward_and_both_backwards(n, c, o, k, stride, pad, dilation, groups, hw):
    c, o = c * groups, o * groups
    if dilation * (k - 1) + 1 > hw + 2 * pad:
        return
    x = RNG.standard_normal((n, c, hw, hw)).astype(np.float32)
    w = RNG.standard_normal((o, c // groups, k, k)).astype(np.float32)
    geometry = dict(stride=(stride, stride), padding=((pad, pad), (pad, pad)),
                    dilation=(dilation, dilation), groups=groups)
    y, want = both("conv2d", x, w, **geometry)
    close(y, want)
    g = RNG.standard_normal(y.shape).astype(np.float32)
    close(*both("conv2d_weight_grad", x, g, kernel_size=(k, k), **geometry))
    extra = tuple((s - 1) % s for s in (stride, stride))  # any output_padding < stride
    close(*both("conv_transpose2d", g, w, output_padding=extra, **geometry))


@pytest.fixture(params=["as oneDNN picks", "channel-blocked"])
def pool_layout(request, monkeypatch):
    """Max pooling as oneDNN picks its layout (on an AVX2 machine, plain-layout pooling is
    its reference kernel, so the channel-blocked one runs), and forced channel-blocked."""
    from sporeling.onednn.kernels import pooling
    from sporeling.onednn.layouts import block_size
    if request.param == "channel-blocked":
        if not block_size():
            pytest.skip("oneDNN picks no channel block here")
        monkeypatch.setattr(pooling, "_layout", lambda *args: block_size())
    monkeypatch.setattr(plan_module._LOCAL, "plans", None, raising=False)  # plans anew
    return request.param


@pytest.mark.parametrize("shape,kernel,stride,pad", [
    ((64, 6, 28, 28), 2, 2, 0),       # LeNet
    ((8, 16, 32, 32), 3, 2, 1),       # overlapping, padded (ResNet's stem)
    ((2, 3, 9, 7), 3, 1, 1)])
def test_pooling_forward_and_backward(shape, kernel, stride, pad, pool_layout):
    geometry = dict(kernel_size=(kernel, kernel), stride=(stride, stride),
                    padding=((pad, pad), (pad, pad)))
    x = RNG.standard_normal(shape).astype(np.float32)
    (y, index), (y0, index0) = both("max_pool2d", x, dilation=(1, 1), **geometry)
    np.testing.assert_array_equal(y, y0)
    np.testing.assert_array_equal(index, index0)
    g = RNG.standard_normal(y.shape).astype(np.float32)
    # overlapping windows add in another order: equal to rounding
    close(*both("max_pool2d_scatter", g, index, dilation=(1, 1), input_size=shape[2:],
                **geometry))
    for include in (True, False):
        close(*both("avg_pool2d", x, count_include_pad=include, **geometry))
        close(*both("avg_pool2d_transpose", g, count_include_pad=include,
                    input_size=shape[2:], **geometry))


def test_ties_send_the_gradient_to_the_first_maximum_as_numpy_does(pool_layout):
    x = RNG.integers(0, 2, (4, 6, 9, 9)).astype(np.float32)   # many equal maxima (ReLU zeros)
    geometry = dict(kernel_size=(3, 3), stride=(2, 2), padding=((1, 1), (1, 1)),
                    dilation=(1, 1))
    (_, index), (_, index0) = both("max_pool2d", x, **geometry)
    np.testing.assert_array_equal(index, index0)


def test_float64_and_strided_inputs():
    x = RNG.standard_normal((2, 3, 8, 8))
    w = RNG.standard_normal((4, 3, 3, 3))
    geometry = dict(stride=(1, 1), padding=((1, 1), (1, 1)), dilation=(1, 1), groups=1)
    y, want = both("conv2d", x, w, **geometry)           # float64 stays on NumPy: identical
    assert y.dtype == np.float64
    np.testing.assert_array_equal(y, want)
    xt = x.astype(np.float32).transpose(0, 1, 3, 2)      # a strided view
    close(*both("conv2d", xt, w.astype(np.float32), **geometry))


def test_a_call_onednn_refuses_runs_numpys_said_once(monkeypatch, caplog):
    def refuse(*args, **kwargs):
        raise OneDnnError("dnnl_convolution_forward_primitive_desc_create", "unimplemented")

    monkeypatch.setattr(plan_module.PrimitiveDesc, "__init__", refuse)
    x = RNG.standard_normal((1, 2, 5, 5)).astype(np.float32)
    w = RNG.standard_normal((3, 2, 2, 2)).astype(np.float32)
    geometry = dict(stride=(1, 1), padding=((0, 0), (0, 0)), dilation=(1, 1), groups=1)
    with caplog.at_level(logging.INFO, logger="sporeling.onednn"):
        for _ in range(2):
            y, want = both("conv2d", x, w, **geometry)
            np.testing.assert_array_equal(y, want)
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 1 and "oneDNN refused conv2d" in said[0] and "unimplemented" in said[0]
