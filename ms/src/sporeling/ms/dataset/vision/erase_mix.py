"""Erasing, blurring, linear maps and batch mixing (MindSpore 2.10's names)."""
from __future__ import annotations

import math
import numbers

import numpy as np

from sporeling.data import DataError

from ._enums import ImageBatchFormat
from ._util import RandomTransform, Transform, as_array, check_prob, restore, rng

__all__ = ["CutOut", "Erase", "RandomErasing", "GaussianBlur", "LinearTransformation",
           "CutMixBatch", "MixUpBatch", "MixUp", "gaussian_kernel"]


class CutOut(RandomTransform):
    """Zero ``num_patches`` random ``length`` x ``length`` squares (inside the image)."""

    def __init__(self, length, num_patches=1, is_hwc=True):
        if length < 1 or num_patches < 1:
            raise DataError("bad length or num_patches", op="CutOut", expected="ints >= 1",
                            got=(length, num_patches))
        self.length, self.num_patches, self.is_hwc = int(length), int(num_patches), is_hwc

    def __call__(self, img):
        a = as_array(img, "CutOut").copy()
        view = a if self.is_hwc or a.ndim == 2 else np.moveaxis(a, 0, -1)
        h, w = view.shape[:2]
        g = rng()
        for _ in range(self.num_patches):
            top = int(g.integers(0, max(h - self.length, 0) + 1))
            left = int(g.integers(0, max(w - self.length, 0) + 1))
            view[top:top + self.length, left:left + self.length] = 0
        return restore(a, img)


class Erase(Transform):
    """Fill the region (top, left, height, width) with ``value`` (a number or per channel)."""

    def __init__(self, top, left, height, width, value=0, inplace=False):
        self.box = (int(top), int(left), int(height), int(width))
        self.value, self.inplace = value, bool(inplace)

    def __call__(self, img):
        a = as_array(img, "Erase")
        out = a if self.inplace and isinstance(img, np.ndarray) else a.copy()
        top, left, h, w = self.box
        out[top:top + h, left:left + w] = np.asarray(self.value, out.dtype)
        return restore(out, img)


class RandomErasing(RandomTransform):
    """With probability ``prob``, erase a random region of ``scale`` of the area and aspect
    ``ratio`` of a CHW image with ``value`` (a number, one per channel, or "random": normal
    noise) -- the random-erasing augmentation (py_transforms' semantics)."""

    def __init__(self, prob=0.5, scale=(0.02, 0.33), ratio=(0.3, 3.3), value=0,
                 inplace=False, max_attempts=10):
        self.prob = check_prob(prob, "RandomErasing")
        self.scale, self.ratio, self.value = tuple(scale), tuple(ratio), value
        self.inplace, self.max_attempts = bool(inplace), int(max_attempts)

    def __call__(self, img):
        g = rng()
        if g.random() >= self.prob:
            return img
        a = np.asarray(img)
        out = a if self.inplace else a.copy()
        c, h, w = a.shape[-3:]
        area = h * w
        for _ in range(self.max_attempts):
            erase = area * g.uniform(*self.scale)
            aspect = math.exp(g.uniform(math.log(self.ratio[0]), math.log(self.ratio[1])))
            eh, ew = int(round(math.sqrt(erase * aspect))), int(round(math.sqrt(erase / aspect)))
            if eh < h and ew < w:
                top, left = int(g.integers(0, h - eh + 1)), int(g.integers(0, w - ew + 1))
                if isinstance(self.value, str):
                    fill = g.normal(size=(c, eh, ew)).astype(a.dtype)
                else:
                    fill = np.asarray(self.value, a.dtype).reshape(-1, 1, 1)
                out[..., top:top + eh, left:left + ew] = fill
                return out
        return out


def gaussian_kernel(size: int, sigma: float) -> np.ndarray:
    x = np.arange(size) - (size - 1) / 2.0
    k = np.exp(-(x ** 2) / (2.0 * sigma ** 2))
    return k / k.sum()


class GaussianBlur(Transform):
    """Blur with a Gaussian kernel of ``kernel_size`` (odd; int or (x, y)) and ``sigma``
    (None: OpenCV's ``0.3 * ((k - 1) * 0.5 - 1) + 0.8``); borders reflect (OpenCV's
    BORDER_REFLECT_101)."""

    def __init__(self, kernel_size, sigma=None):
        kx, ky = (kernel_size, kernel_size) if isinstance(kernel_size, numbers.Integral) \
            else kernel_size
        if kx < 1 or ky < 1 or kx % 2 == 0 or ky % 2 == 0:
            raise DataError("bad kernel_size", op="GaussianBlur", expected="odd ints >= 1",
                            got=kernel_size)
        if sigma is None:
            sx, sy = (0.3 * ((k - 1) * 0.5 - 1) + 0.8 for k in (kx, ky))
        elif isinstance(sigma, numbers.Number):
            sx = sy = float(sigma)
        else:
            sx, sy = sigma
        self.kernels = (gaussian_kernel(int(ky), sy), gaussian_kernel(int(kx), sx))

    def __call__(self, img):
        a = as_array(img, "GaussianBlur")
        x = a.astype(np.float64)
        for axis, k in enumerate(self.kernels):
            r = len(k) // 2
            if r == 0:
                continue
            widths = [(0, 0)] * x.ndim
            widths[axis] = (r, r)
            padded = np.pad(x, widths, mode="reflect")
            x = sum(k[i] * np.take(padded, range(i, i + x.shape[axis]), axis=axis)
                    for i in range(len(k)))
        if a.dtype.kind in "iu":
            x = np.clip(np.rint(x), np.iinfo(a.dtype).min, np.iinfo(a.dtype).max)
        return restore(x.astype(a.dtype), img)


class LinearTransformation(Transform):
    """Flatten a CHW image, subtract ``mean_vector`` and multiply by
    ``transformation_matrix`` (D x D, D = C*H*W), then restore the shape (whitening)."""

    def __init__(self, transformation_matrix, mean_vector):
        self.matrix = np.asarray(transformation_matrix)
        self.mean = np.asarray(mean_vector)
        d = self.mean.shape[0]
        if self.matrix.shape != (d, d):
            raise DataError("matrix and mean disagree", op="LinearTransformation",
                            expected=f"a ({d}, {d}) matrix", got=self.matrix.shape)

    def __call__(self, img):
        a = np.asarray(img)
        flat = a.reshape(-1)
        if flat.shape[0] != self.mean.shape[0]:
            raise DataError("image size differs from the matrix", op="LinearTransformation",
                            expected=self.mean.shape[0], got=flat.shape[0])
        return ((flat - self.mean) @ self.matrix).reshape(a.shape).astype(
            a.dtype if a.dtype.kind == "f" else np.float32)


def _labels(labels, op):
    labels = np.asarray(labels)
    if labels.ndim not in (2, 3):
        raise DataError("labels must be one-hot", op=op, expected="(N, classes) labels",
                        got=labels.shape, hint="apply transforms.OneHot before batch()")
    return labels


class CutMixBatch(RandomTransform):
    """CutMix on a batch (images NHWC or NCHW, one-hot labels): with probability ``prob``
    each image gets a box from another image of the batch, its area fraction from
    Beta(``alpha``, ``alpha``), and labels mix by the pasted area."""

    def __init__(self, image_batch_format, alpha=1.0, prob=1.0):
        self.format = ImageBatchFormat(image_batch_format)
        if alpha <= 0:
            raise DataError("bad alpha", op="CutMixBatch", expected="> 0", got=alpha)
        self.alpha, self.prob = float(alpha), check_prob(prob, "CutMixBatch")

    def __call__(self, images, labels):
        images = np.asarray(images)
        labels = _labels(labels, "CutMixBatch")
        nhwc = images if self.format is ImageBatchFormat.NHWC else np.moveaxis(images, 1, -1)
        out_images, out_labels = nhwc.copy(), labels.astype(np.float32)
        n, h, w = nhwc.shape[:3]
        g = rng()
        for i in range(n):
            if g.random() >= self.prob:
                continue
            j = int(g.integers(n))
            lam = g.beta(self.alpha, self.alpha)
            cut = math.sqrt(1.0 - lam)
            ch, cw = int(h * cut), int(w * cut)
            cy, cx = int(g.integers(h)), int(g.integers(w))
            y0, y1 = np.clip([cy - ch // 2, cy + ch // 2], 0, h)
            x0, x1 = np.clip([cx - cw // 2, cx + cw // 2], 0, w)
            out_images[i, y0:y1, x0:x1] = nhwc[j, y0:y1, x0:x1]
            share = (y1 - y0) * (x1 - x0) / float(h * w)
            out_labels[i] = (1 - share) * labels[i] + share * labels[j]
        if self.format is ImageBatchFormat.NCHW:
            out_images = np.ascontiguousarray(np.moveaxis(out_images, -1, 1))
        return out_images, out_labels.astype(labels.dtype if labels.dtype.kind == "f"
                                             else np.float32)


class MixUpBatch(RandomTransform):
    """MixUp on a batch: ``lam * x + (1 - lam) * x[perm]`` for images and one-hot labels,
    lam from Beta(``alpha``, ``alpha``)."""

    def __init__(self, alpha=1.0):
        if alpha <= 0:
            raise DataError("bad alpha", op="MixUpBatch", expected="> 0", got=alpha)
        self.alpha = float(alpha)

    def __call__(self, images, labels):
        images, labels = np.asarray(images), _labels(labels, "MixUpBatch")
        g = rng()
        lam = g.beta(self.alpha, self.alpha)
        perm = g.permutation(len(images))
        mixed = lam * images.astype(np.float32) + (1 - lam) * images[perm].astype(np.float32)
        if images.dtype.kind in "iu":
            mixed = np.clip(np.rint(mixed), 0, np.iinfo(images.dtype).max)
        mixed_labels = lam * labels.astype(np.float32) + (1 - lam) * labels[perm]
        return mixed.astype(images.dtype), mixed_labels.astype(np.float32)


class MixUp(RandomTransform):
    """MixUp over batches of ``batch_size`` (py_transforms): with ``is_single`` the batch
    mixes with itself in reverse order, else with the previous batch; lam ~ Beta(alpha,
    alpha)."""

    def __init__(self, batch_size, alpha, is_single=True):
        if batch_size < 1 or alpha <= 0:
            raise DataError("bad batch_size or alpha", op="MixUp",
                            expected="batch_size >= 1, alpha > 0", got=(batch_size, alpha))
        self.batch_size, self.alpha, self.is_single = int(batch_size), float(alpha), is_single
        self._previous = None

    def __call__(self, images, labels):
        images, labels = np.asarray(images), np.asarray(labels)
        lam = rng().beta(self.alpha, self.alpha)
        if self.is_single or self._previous is None or \
                self._previous[0].shape != images.shape:
            other_images, other_labels = images[::-1], labels[::-1]
        else:
            other_images, other_labels = self._previous
        self._previous = (images, labels)
        mixed = lam * images + (1 - lam) * other_images
        mixed_labels = lam * labels + (1 - lam) * other_labels
        return mixed.astype(images.dtype if images.dtype.kind == "f" else np.float32), \
            mixed_labels.astype(np.float32)
