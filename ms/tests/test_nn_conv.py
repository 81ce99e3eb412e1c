"""``ms.nn`` convolutions and ``Unfold`` against NumPy loops (MindSpore's pad modes)."""
import numpy as np
import pytest

import sporeling.ms as ms
from sporeling.ms import nn

import _np_windows as ref
from _reference import check_grad, graph_equals_pynative, np_of, t

RNG = np.random.default_rng(0)


@pytest.mark.parametrize("pad_mode, padding, stride, dilation, group", [
    ("valid", 0, 1, 1, 1), ("pad", 1, 2, 1, 2), ("same", 0, 2, 2, 1),
    ("pad", (1, 0, 0, 2, 1, 1), 1, 1, 1)])
def test_conv3d(pad_mode, padding, stride, dilation, group):
    x = RNG.normal(size=(2, 4, 5, 6, 5)).astype(np.float32)
    cell = nn.Conv3d(4, 6, 3, stride, pad_mode, padding, dilation, group, has_bias=True)
    w, b = np_of(cell.weight), np_of(cell.bias)
    if pad_mode == "same":
        from sporeling.ms.nn._windows import same_pads
        pads = same_pads(x.shape[2:], (3,) * 3, (stride,) * 3, (dilation,) * 3)
    elif isinstance(padding, tuple):
        pads = ((1, 0), (0, 2), (1, 1))
    else:
        pads = ((padding, padding),) * 3
    expected = ref.conv(x, w, b, stride, dilation, pads, group)
    np.testing.assert_allclose(np_of(cell(t(x))), expected, rtol=1e-4, atol=1e-5)
    if pad_mode == "same":
        assert np_of(cell(t(x))).shape[2:] == tuple(-(-s // stride) for s in x.shape[2:])


def test_conv1d_conv2d_match_reference():
    x1 = RNG.normal(size=(2, 3, 7)).astype(np.float32)
    c1 = nn.Conv1d(3, 4, 3, pad_mode="pad", padding=1, has_bias=True)
    w1 = np_of(c1.weight).reshape(4, 3, 3)
    np.testing.assert_allclose(np_of(c1(t(x1))), ref.conv(x1, w1, np_of(c1.bias), 1, 1, 1),
                               rtol=1e-4, atol=1e-5)
    x2 = RNG.normal(size=(2, 3, 7, 6)).astype(np.float32)
    c2 = nn.Conv2d(3, 4, (3, 2), stride=2, pad_mode="valid")
    np.testing.assert_allclose(np_of(c2(t(x2))), ref.conv(x2, np_of(c2.weight), None, 2),
                               rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("pad_mode, padding, stride", [("valid", 0, 2), ("same", 0, 2),
                                                       ("pad", 1, 3)])
def test_conv1d_transpose(pad_mode, padding, stride):
    x = RNG.normal(size=(2, 4, 5)).astype(np.float32)
    cell = nn.Conv1dTranspose(4, 6, 3, stride, pad_mode, padding, group=2, has_bias=True)
    w, b = np_of(cell.weight), np_of(cell.bias)
    if pad_mode == "same":
        total = max(0, 3 - stride)
        crops = ((total // 2, total - total // 2),)
    else:
        crops = ((padding, padding),)
    expected = ref.conv_transpose(x, w, stride, 1, crops, 2) + b[None, :, None]
    out = np_of(cell(t(x)))
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-5)
    if pad_mode == "same":
        assert out.shape[-1] == 5 * stride


def test_conv3d_transpose_and_output_padding():
    x = RNG.normal(size=(1, 2, 3, 4, 3)).astype(np.float32)
    cell = nn.Conv3dTranspose(2, 3, 2, stride=2, pad_mode="pad", padding=1, output_padding=1)
    # padding 1 on both sides, then output_padding 1 gives back one position at the end
    full = ref.conv_transpose(x, np_of(cell.weight), 2, 1, ((1, 0),) * 3)
    out = np_of(cell(t(x)))
    assert out.shape == (1, 3, 5, 7, 5)
    np.testing.assert_allclose(out, full, rtol=1e-4, atol=1e-5)


def test_conv2d_transpose_same_doubles_size():
    cell = nn.Conv2dTranspose(3, 2, 4, stride=2, pad_mode="same")
    assert np_of(cell(t(np.ones((1, 3, 5, 6))))).shape == (1, 2, 10, 12)


def test_unfold_matches_extract_image_patches():
    # MindSpore's nn.Unfold doc example: (2, 3, 6, 6) input, ksizes 2x2, strides 1, rates 2
    x = np.arange(2 * 3 * 6 * 6, dtype=np.float32).reshape(2, 3, 6, 6)
    cell = nn.Unfold([1, 2, 2, 1], [1, 1, 1, 1], [1, 2, 2, 1])
    out = np_of(cell(t(x)))
    assert out.shape == (2, 12, 4, 4)
    # depth index runs over (kh, kw, C), C fastest
    for kh in range(2):
        for kw in range(2):
            for c in range(3):
                np.testing.assert_array_equal(out[:, (kh * 2 + kw) * 3 + c],
                                              x[:, c, kh * 2:kh * 2 + 4, kw * 2:kw * 2 + 4])
    # the documented example: ksizes 2, strides 2, rates 2 on (2, 3, 6, 6) -> (2, 12, 2, 2)
    doc = nn.Unfold([1, 2, 2, 1], [1, 2, 2, 1], [1, 2, 2, 1])
    assert np_of(doc(t(np.ones((2, 3, 6, 6))))).shape == (2, 12, 2, 2)
    same = nn.Unfold([1, 3, 3, 1], [1, 2, 2, 1], [1, 1, 1, 1], "same")
    assert np_of(same(t(x))).shape == (2, 27, 3, 3)


def test_conv_gradients_and_graph_mode():
    cell = nn.Conv3d(2, 2, 2, pad_mode="valid", has_bias=True, dtype=ms.float64)
    check_grad(cell, RNG.normal(size=(1, 2, 3, 3, 3)))
    tr = nn.Conv1dTranspose(2, 2, 3, 2, dtype=ms.float64)
    check_grad(tr, RNG.normal(size=(1, 2, 4)))
    x = t(RNG.normal(size=(1, 2, 4, 4, 4)))
    cell32 = nn.Conv3d(2, 3, 3)
    graph_equals_pynative(lambda x: cell32(x), x, rtol=1e-4, atol=1e-5)
