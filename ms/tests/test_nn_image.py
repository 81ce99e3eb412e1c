"""``ms.nn`` image cells: crops, gradients, PSNR/SSIM/MS-SSIM, pixel shuffles, Upsample."""
import numpy as np
import pytest

from sporeling.ms import nn

from _reference import check_grad, graph_equals_pynative, np_of, t

RNG = np.random.default_rng(5)


def test_central_crop_follows_tensorflow_rule():
    x = np.arange(2 * 3 * 8 * 6, dtype=np.float32).reshape(2, 3, 8, 6)
    out = np_of(nn.CentralCrop(0.5)(t(x)))
    np.testing.assert_array_equal(out, x[:, :, 2:6, 1:5])
    assert np_of(nn.CentralCrop(0.5)(t(x[0]))).shape == (3, 4, 4)
    np.testing.assert_array_equal(np_of(nn.CentralCrop(1.0)(t(x))), x)
    with pytest.raises(ValueError, match="central_fraction"):
        nn.CentralCrop(0.0)


def test_image_gradients_documented_example():
    dy, dx = nn.ImageGradients()(t([[[[1, 2], [3, 4]]]]))
    np.testing.assert_array_equal(np_of(dy), [[[[2, 2], [0, 0]]]])
    np.testing.assert_array_equal(np_of(dx), [[[[1, 0], [1, 0]]]])


def test_psnr():
    a = RNG.random((2, 3, 8, 8)).astype(np.float32)
    b = np.clip(a + RNG.normal(0, 0.05, a.shape), 0, 1).astype(np.float32)
    mse = ((a - b) ** 2).mean((1, 2, 3))
    np.testing.assert_allclose(np_of(nn.PSNR()(t(a), t(b))), 10 * np.log10(1 / mse), rtol=1e-5)


def _ssim_reference(a, b, size=11, sigma=1.5, k1=0.01, k2=0.03, max_val=1.0):
    coords = np.arange(size) - (size - 1) / 2
    g = np.exp(-coords ** 2 / (2 * sigma ** 2))
    g = np.outer(g, g) / g.sum() ** 2

    def blur(x):
        h, w = x.shape[-2] - size + 1, x.shape[-1] - size + 1
        out = np.zeros(x.shape[:2] + (h, w))
        for i in range(h):
            for j in range(w):
                out[..., i, j] = (x[..., i:i + size, j:j + size] * g).sum((-1, -2))
        return out

    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    mu1, mu2 = blur(a), blur(b)
    s11, s22, s12 = blur(a * a) - mu1 ** 2, blur(b * b) - mu2 ** 2, blur(a * b) - mu1 * mu2
    cs = (2 * s12 + c2) / (s11 + s22 + c2)
    ssim = (2 * mu1 * mu2 + c1) / (mu1 ** 2 + mu2 ** 2 + c1) * cs
    return ssim.mean((1, 2, 3)), cs.mean((1, 2, 3))


def test_ssim_and_msssim_against_reference():
    a = RNG.random((2, 1, 16, 16))
    b = np.clip(a + RNG.normal(0, 0.1, a.shape), 0, 1)
    expected, _ = _ssim_reference(a, b)
    np.testing.assert_allclose(np_of(nn.SSIM()(t(a), t(b))), expected, rtol=1e-4)
    np.testing.assert_allclose(np_of(nn.SSIM()(t(a), t(a))), 1.0, rtol=1e-5)
    powers = (0.5, 0.5)
    ms_value = np_of(nn.MSSSIM(power_factors=powers, filter_size=5)(t(a), t(b)))
    _, cs0 = _ssim_reference(a, b, size=5)
    pooled = lambda x: x.reshape(2, 1, 8, 2, 8, 2).mean((3, 5))  # noqa: E731
    ssim1, _ = _ssim_reference(pooled(a), pooled(b), size=5)
    np.testing.assert_allclose(ms_value, cs0 ** 0.5 * ssim1 ** 0.5, rtol=1e-4)


def test_pixel_shuffle_roundtrip_and_layout():
    x = np.arange(1 * 8 * 2 * 3, dtype=np.float32).reshape(1, 8, 2, 3)
    y = np_of(nn.PixelShuffle(2)(t(x)))
    assert y.shape == (1, 2, 4, 6)
    expected = x.reshape(1, 2, 2, 2, 2, 3).transpose(0, 1, 4, 2, 5, 3).reshape(1, 2, 4, 6)
    np.testing.assert_array_equal(y, expected)
    np.testing.assert_array_equal(np_of(nn.PixelUnshuffle(2)(t(y))), x)


def _linear_resize(x, out, align):
    size = x.shape[-1]
    i = np.arange(out)
    src = i * (size - 1) / (out - 1) if align else np.maximum((i + 0.5) * size / out - 0.5, 0)
    i0 = np.minimum(np.floor(src).astype(int), size - 1)
    i1 = np.minimum(i0 + 1, size - 1)
    w = src - i0
    return x[..., i0] * (1 - w) + x[..., i1] * w


@pytest.mark.parametrize("align", [False, True])
def test_upsample_linear_modes(align):
    x = RNG.normal(size=(1, 2, 3, 4))
    out = np_of(nn.Upsample(size=(5, 7), mode="bilinear", align_corners=align)(t(x)))
    rows = _linear_resize(x.swapaxes(-1, -2), 5, align).swapaxes(-1, -2)
    np.testing.assert_allclose(out, _linear_resize(rows, 7, align), rtol=1e-5, atol=1e-6)
    x1 = RNG.normal(size=(1, 1, 4))
    np.testing.assert_allclose(np_of(nn.Upsample(scale_factor=2.0, mode="linear",
                                                 align_corners=align)(t(x1))),
                               _linear_resize(x1, 8, align), rtol=1e-5, atol=1e-6)


def test_upsample_nearest_and_trilinear_shapes():
    x = np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2)
    np.testing.assert_array_equal(np_of(nn.Upsample(scale_factor=2)(t(x)))[0, 0],
                                  [[0, 0, 1, 1], [0, 0, 1, 1], [2, 2, 3, 3], [2, 2, 3, 3]])
    x3 = RNG.normal(size=(1, 1, 2, 3, 2))
    assert np_of(nn.Upsample(size=4, mode="trilinear")(t(x3))).shape == (1, 1, 4, 4, 4)
    with pytest.raises(ValueError, match="mode"):
        nn.Upsample(size=2, mode="bicubic")


def test_image_gradients_and_graph_mode():
    ref = t(RNG.random((1, 1, 5, 5)))
    check_grad(lambda x: nn.SSIM(filter_size=3)(x, ref), RNG.random((1, 1, 5, 5)), rtol=1e-4,
               atol=1e-5)
    check_grad(nn.Upsample(size=(3, 5), mode="bilinear"), RNG.normal(size=(1, 1, 2, 3)))
    x = t(RNG.random((1, 4, 4, 4)))
    graph_equals_pynative(lambda a: nn.PixelUnshuffle(2)(nn.PixelShuffle(2)(a)) +
                          nn.ImageGradients()(a)[0], x)
