"""Image-processing cells of ``ms.nn``: crops, gradients, quality metrics (PSNR, SSIM,
MS-SSIM), pixel (un)shuffle and ``Upsample``; all from sx ops (Graph mode and gradients)."""
from __future__ import annotations

import math

import numpy as np

import sporeling.expression as sx
from sporeling.core.errors import ShapeError

from .cell import Cell
from ._windows import conv_nd, patches

ops = sx.ops

__all__ = ["CentralCrop", "ImageGradients", "MSSSIM", "PSNR", "PixelShuffle",
           "PixelUnshuffle", "SSIM", "Upsample"]


def _need_4d(owner, x):
    if len(x.shape) != 4:
        raise ShapeError("wrong input rank", op=owner, expected="(N, C, H, W)",
                         got=tuple(x.shape))


class CentralCrop(Cell):
    """The central ``central_fraction`` of (C, H, W) or (N, C, H, W) images (TensorFlow's
    rule: the border is ``int((size - size * fraction) / 2)``)."""

    def __init__(self, central_fraction):
        super().__init__()
        if not 0.0 < central_fraction <= 1.0:
            raise ValueError(f"CentralCrop: central_fraction must be in (0, 1], got "
                             f"{central_fraction}")
        self.central_fraction = float(central_fraction)

    def construct(self, image):
        if len(image.shape) not in (3, 4):
            raise ShapeError("wrong input rank", op="CentralCrop",
                             expected="(C, H, W) or (N, C, H, W)", got=tuple(image.shape))
        if self.central_fraction == 1.0:
            return image
        h, w = image.shape[-2], image.shape[-1]
        top = int((h - h * self.central_fraction) / 2)
        left = int((w - w * self.central_fraction) / 2)
        key = (Ellipsis, slice(top, h - top), slice(left, w - left))
        return ops.getitem(image, key)


class ImageGradients(Cell):
    """``(dy, dx)``: forward differences along H and W of (N, C, H, W), zero in the last
    row / column."""

    def construct(self, images):
        _need_4d("ImageGradients", images)
        dy = ops.sub(ops.getitem(images, (Ellipsis, slice(1, None), slice(None))),
                     ops.getitem(images, (Ellipsis, slice(None, -1), slice(None))))
        dx = ops.sub(ops.getitem(images, (Ellipsis, slice(1, None))),
                     ops.getitem(images, (Ellipsis, slice(None, -1))))
        dy = ops.pad(dy, ((0, 0), (0, 0), (0, 1), (0, 0)))
        dx = ops.pad(dx, ((0, 0), (0, 0), (0, 0), (0, 1)))
        return dy, dx


class PSNR(Cell):
    """Peak signal-to-noise ratio per image: ``10 log10(max_val^2 / mse)``, shape (N,)."""

    def __init__(self, max_val=1.0):
        super().__init__()
        if max_val <= 0:
            raise ValueError(f"PSNR: max_val must be > 0, got {max_val}")
        self.max_val = float(max_val)

    def construct(self, img1, img2):
        _need_4d("PSNR", img1)
        if tuple(img1.shape) != tuple(img2.shape):
            raise ShapeError("images differ in shape", op="PSNR", expected=tuple(img1.shape),
                             got=tuple(img2.shape))
        mse = ops.mean(ops.square(ops.sub(img1, img2)), (1, 2, 3))
        return ops.mul(ops.log(ops.div(self.max_val ** 2, mse)), 10.0 / math.log(10.0))


def _gaussian(size, sigma):
    coords = np.arange(size, dtype=np.float64) - (size - 1) / 2.0
    g = np.exp(-(coords ** 2) / (2 * sigma ** 2))
    g /= g.sum()
    return np.outer(g, g)


class SSIM(Cell):
    """Structural similarity per image (N,), Gaussian window ``filter_size`` / ``filter_sigma``
    (valid convolution), constants ``(k1 max_val)^2`` and ``(k2 max_val)^2``."""

    def __init__(self, max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03):
        super().__init__()
        if max_val <= 0 or filter_size < 1 or filter_sigma <= 0:
            raise ValueError("SSIM: expected max_val > 0, filter_size >= 1, filter_sigma > 0")
        self.max_val, self.filter_size = float(max_val), int(filter_size)
        self.filter_sigma, self.k1, self.k2 = float(filter_sigma), float(k1), float(k2)

    def _parts(self, img1, img2):
        """Per-pixel SSIM map and contrast-structure map."""
        c = img1.shape[1]
        size = min(self.filter_size, img1.shape[2], img1.shape[3])
        kernel = _gaussian(size, self.filter_sigma).astype(np.dtype(img1.dtype))
        weight = np.broadcast_to(kernel, (c, 1, size, size)).copy()
        blur = lambda t: conv_nd(t, weight, None, (1, 1), (1, 1), ((0, 0), (0, 0)), c)  # noqa: E731
        c1, c2 = (self.k1 * self.max_val) ** 2, (self.k2 * self.max_val) ** 2
        mu1, mu2 = blur(img1), blur(img2)
        s11 = ops.sub(blur(ops.mul(img1, img1)), ops.mul(mu1, mu1))
        s22 = ops.sub(blur(ops.mul(img2, img2)), ops.mul(mu2, mu2))
        s12 = ops.sub(blur(ops.mul(img1, img2)), ops.mul(mu1, mu2))
        cs = ops.div(ops.add(ops.mul(s12, 2.0), c2), ops.add(ops.add(s11, s22), c2))
        lum = ops.div(ops.add(ops.mul(ops.mul(mu1, mu2), 2.0), c1),
                      ops.add(ops.add(ops.mul(mu1, mu1), ops.mul(mu2, mu2)), c1))
        return ops.mul(lum, cs), cs

    def construct(self, img1, img2):
        _need_4d("SSIM", img1)
        if tuple(img1.shape) != tuple(img2.shape):
            raise ShapeError("images differ in shape", op="SSIM", expected=tuple(img1.shape),
                             got=tuple(img2.shape))
        ssim_map, _ = self._parts(img1, img2)
        return ops.mean(ssim_map, (1, 2, 3))


class MSSSIM(SSIM):
    """Multi-scale SSIM: contrast-structure at each of ``len(power_factors)`` scales (2x2
    average-pooled between scales) and SSIM at the last, combined as
    ``prod cs_i^p_i * ssim^p_last`` (negative terms clipped to 0)."""

    def __init__(self, max_val=1.0, power_factors=(0.0448, 0.2856, 0.3001, 0.2363, 0.1333),
                 filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03):
        super().__init__(max_val, filter_size, filter_sigma, k1, k2)
        self.power_factors = tuple(float(p) for p in power_factors)

    def construct(self, img1, img2):
        _need_4d("MSSSIM", img1)
        result = None
        levels = len(self.power_factors)
        for i, power in enumerate(self.power_factors):
            ssim_map, cs = self._parts(img1, img2)
            value = ops.mean(ssim_map if i == levels - 1 else cs, (1, 2, 3))
            term = ops.pow(ops.maximum(value, 0.0), power)
            result = term if result is None else ops.mul(result, term)
            if i < levels - 1:
                img1 = ops.mean(patches(img1, (2, 2), (2, 2), (1, 1)), 2)
                img2 = ops.mean(patches(img2, (2, 2), (2, 2), (1, 1)), 2)
        return result


class PixelShuffle(Cell):
    """(..., C r^2, H, W) -> (..., C, H r, W r)."""

    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = int(upscale_factor)

    def construct(self, x):
        r = self.upscale_factor
        shape = tuple(x.shape)
        if len(shape) < 3 or shape[-3] % (r * r):
            raise ShapeError("channels not divisible by upscale_factor^2", op="PixelShuffle",
                             expected=f"(..., C*{r * r}, H, W)", got=shape)
        lead, (c, h, w) = shape[:-3], shape[-3:]
        y = ops.reshape(x, (-1, c // (r * r), r, r, h, w))
        y = ops.transpose(y, (0, 1, 4, 2, 5, 3))
        return ops.reshape(y, lead + (c // (r * r), h * r, w * r))


class PixelUnshuffle(Cell):
    """(..., C, H r, W r) -> (..., C r^2, H, W)."""

    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = int(downscale_factor)

    def construct(self, x):
        r = self.downscale_factor
        shape = tuple(x.shape)
        if len(shape) < 3 or shape[-2] % r or shape[-1] % r:
            raise ShapeError("H and W not divisible by downscale_factor", op="PixelUnshuffle",
                             expected=f"(..., C, H*{r}, W*{r})", got=shape)
        lead, (c, h, w) = shape[:-3], shape[-3:]
        y = ops.reshape(x, (-1, c, h // r, r, w // r, r))
        y = ops.transpose(y, (0, 1, 3, 5, 2, 4))
        return ops.reshape(y, lead + (c * r * r, h // r, w // r))


def _linear_axis(x, axis, out, align_corners):
    size = x.shape[axis]
    i = np.arange(out, dtype=np.float64)
    if align_corners:
        src = i * (size - 1) / (out - 1) if out > 1 else np.zeros(out)
    else:
        src = np.maximum((i + 0.5) * size / out - 0.5, 0.0)
    i0 = np.minimum(np.floor(src).astype(np.int64), size - 1)
    i1 = np.minimum(i0 + 1, size - 1)
    w = (src - i0).astype(np.dtype(x.dtype))
    shape = [1] * len(x.shape)
    shape[axis] = out
    w = w.reshape(shape)
    a, b = ops.index_select(x, i0, axis), ops.index_select(x, i1, axis)
    return ops.add(ops.mul(a, 1.0 - w), ops.mul(b, w))


class Upsample(Cell):
    """Resize the spatial axes of (N, C, *spatial) to ``size`` or by ``scale_factor``;
    ``mode`` "nearest", "linear", "bilinear" or "trilinear" (``align_corners`` as PyTorch).
    "bicubic" is not available in sporeling.ms."""

    _MODES = {"nearest": None, "linear": 1, "bilinear": 2, "trilinear": 3}

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None):
        super().__init__()
        if mode not in self._MODES:
            raise ValueError(f"Upsample: mode must be one of {sorted(self._MODES)}, got "
                             f"{mode!r}")
        if (size is None) == (scale_factor is None):
            raise ValueError("Upsample: give exactly one of size and scale_factor")
        if mode == "nearest" and align_corners:
            raise ValueError("Upsample: align_corners only applies to the linear modes")
        self.size, self.scale_factor, self.mode = size, scale_factor, mode
        self.align_corners = bool(align_corners)

    def construct(self, x):
        n_sp = len(x.shape) - 2
        want = self._MODES[self.mode]
        if n_sp < 1 or (want is not None and want != n_sp):
            raise ShapeError("wrong input rank for the mode", op="Upsample",
                             expected=f"{(want or n_sp) + 2}-d input for mode {self.mode!r}",
                             got=tuple(x.shape))
        spatial = tuple(x.shape[2:])
        if self.size is not None:
            outs = (self.size,) * n_sp if isinstance(self.size, int) else tuple(self.size)
        else:
            factors = (self.scale_factor,) * n_sp if isinstance(self.scale_factor,
                                                                (int, float)) \
                else tuple(self.scale_factor)
            outs = tuple(int(math.floor(s * f)) for s, f in zip(spatial, factors))
        for i, (size, out) in enumerate(zip(spatial, outs)):
            axis = 2 + i
            if self.mode == "nearest":
                idx = np.minimum(np.floor(np.arange(out) * size / out).astype(np.int64),
                                 size - 1)
                x = ops.index_select(x, idx, axis)
            else:
                x = _linear_axis(x, axis, out, self.align_corners)
        return x
