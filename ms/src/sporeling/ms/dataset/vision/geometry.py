"""Geometric vision transforms (MindSpore 2.10's names and arguments) on HWC arrays or PIL
images: resizing, cropping, padding, flips, rotations, affine and perspective warps."""
from __future__ import annotations

import math
import numbers

import numpy as np

from sporeling.data import DataError
from sporeling.data.transforms.vision import decode_image

from ._enums import Border, Inter, SliceMode, pil_filter
from ._util import RandomTransform, Transform, as_array, check_prob, restore, rng

__all__ = ["Resize", "RandomResize", "Crop", "CenterCrop", "RandomCrop", "ResizedCrop",
           "RandomResizedCrop", "RandomCropDecodeResize", "Pad", "PadToSize",
           "HorizontalFlip", "VerticalFlip", "RandomHorizontalFlip", "RandomVerticalFlip",
           "Rotate", "RandomRotation", "Affine", "RandomAffine", "Perspective",
           "RandomPerspective", "FiveCrop", "TenCrop", "SlicePatches", "resize", "pad",
           "warp_affine"]


def _size(size, op):
    if isinstance(size, numbers.Integral) and not isinstance(size, bool):
        size = int(size)
        if size < 1:
            raise DataError("bad size", op=op, expected="an int >= 1", got=size)
        return size
    size = tuple(size)
    if len(size) == 1:
        return _size(size[0], op)
    if len(size) != 2 or any(not isinstance(s, numbers.Integral) or s < 1 for s in size):
        raise DataError("bad size", op=op, expected="an int or (height, width) ints >= 1",
                        got=repr(size))
    return int(size[0]), int(size[1])


def _hw(size):
    return (size, size) if isinstance(size, int) else size


def resize(img: np.ndarray, hw, interpolation=Inter.LINEAR, box=None) -> np.ndarray:
    """``img`` resampled to ``hw`` (h, w) with Pillow (float images channel by channel)."""
    from PIL import Image
    h, w = hw
    flt = pil_filter(interpolation)
    if img.dtype == np.uint8 and (img.ndim == 2 or img.shape[2] in (1, 3, 4)):
        squeeze = img.ndim == 3 and img.shape[2] == 1
        src = img[..., 0] if squeeze else img
        out = np.asarray(Image.fromarray(src).resize((w, h), flt, box=box))
        return out[..., None] if squeeze else out
    planes = img[..., None] if img.ndim == 2 else img
    out = np.stack([np.asarray(Image.fromarray(planes[..., c].astype(np.float32), "F")
                               .resize((w, h), flt, box=box)) for c in range(planes.shape[2])],
                   -1)
    if img.dtype.kind in "iu":
        info = np.iinfo(img.dtype)
        out = np.clip(np.rint(out), info.min, info.max)
    out = out.astype(img.dtype)
    return out[..., 0] if img.ndim == 2 else out


def _short_side(h, w, s):
    return (s, max(1, int(w * s / h))) if h <= w else (max(1, int(h * s / w)), s)


class Resize(Transform):
    """To ``size`` (h, w); an int resizes the shorter side to it keeping the aspect ratio."""

    def __init__(self, size, interpolation=Inter.LINEAR):
        self.size, self.interpolation = _size(size, "Resize"), Inter(interpolation)

    def __call__(self, img):
        a = as_array(img, "Resize")
        hw = _short_side(*a.shape[:2], self.size) if isinstance(self.size, int) else self.size
        return restore(resize(a, hw, self.interpolation), img)


class RandomResize(RandomTransform):
    """``Resize`` with an interpolation drawn per image among NEAREST, LINEAR, CUBIC, AREA."""
    _MODES = (Inter.BILINEAR, Inter.NEAREST, Inter.BICUBIC, Inter.AREA)

    def __init__(self, size):
        self.size = _size(size, "RandomResize")

    def __call__(self, img):
        mode = self._MODES[int(rng().integers(len(self._MODES)))]
        return Resize(self.size, mode)(img)


class Crop(Transform):
    """The ``size`` region whose top-left corner is ``coordinates`` (top, left)."""

    def __init__(self, coordinates, size):
        self.top, self.left = (int(c) for c in coordinates)
        self.size = _hw(_size(size, "Crop"))

    def __call__(self, img):
        a = as_array(img, "Crop")
        h, w = self.size
        if self.top < 0 or self.left < 0 or self.top + h > a.shape[0] or \
                self.left + w > a.shape[1]:
            raise DataError("crop outside the image", op="Crop",
                            expected=f"a region inside {a.shape[:2]}",
                            got=(self.top, self.left, h, w))
        return restore(a[self.top:self.top + h, self.left:self.left + w], img)


class CenterCrop(Transform):
    """The central ``size`` region (zero-padded first when the image is smaller)."""

    def __init__(self, size):
        self.size = _hw(_size(size, "CenterCrop"))

    def __call__(self, img):
        a = as_array(img, "CenterCrop")
        th, tw = self.size
        h, w = a.shape[:2]
        if h < th or w < tw:
            ph, pw = max(th - h, 0), max(tw - w, 0)
            a = pad(a, (pw // 2, ph // 2, pw - pw // 2, ph - ph // 2), 0, Border.CONSTANT)
            h, w = a.shape[:2]
        top, left = int(round((h - th) / 2.0)), int(round((w - tw) / 2.0))
        return restore(a[top:top + th, left:left + tw], img)


def _padding(padding, op):
    if isinstance(padding, numbers.Integral):
        padding = (padding,) * 4
    padding = tuple(int(p) for p in padding)
    if len(padding) == 2:
        padding = (padding[0], padding[1], padding[0], padding[1])
    if len(padding) != 4 or any(p < 0 for p in padding):
        raise DataError("bad padding", op=op, expected="an int, (left/right, top/bottom) or "
                        "(left, top, right, bottom), all >= 0", got=padding)
    return padding


def pad(a: np.ndarray, ltrb, fill_value, mode) -> np.ndarray:
    left, top, right, bottom = ltrb
    widths = [(top, bottom), (left, right)] + [(0, 0)] * (a.ndim - 2)
    mode = Border(mode)
    if mode is Border.CONSTANT:
        if np.ndim(fill_value) == 0 or a.ndim == 2:
            return np.pad(a, widths, constant_values=np.asarray(fill_value).flat[0])
        out = np.empty((a.shape[0] + top + bottom, a.shape[1] + left + right, a.shape[2]),
                       a.dtype)
        out[...] = np.asarray(fill_value, a.dtype)
        out[top:top + a.shape[0], left:left + a.shape[1]] = a
        return out
    return np.pad(a, widths, mode=mode.value)


class Pad(Transform):
    """Pad the borders: ``padding`` is an int, (left/right, top/bottom) or (left, top, right,
    bottom); ``fill_value`` (an int or an RGB triple) for ``Border.CONSTANT``."""

    def __init__(self, padding, fill_value=0, padding_mode=Border.CONSTANT):
        self.padding = _padding(padding, "Pad")
        self.fill_value, self.padding_mode = fill_value, Border(padding_mode)

    def __call__(self, img):
        a = as_array(img, "Pad")
        return restore(pad(a, self.padding, self.fill_value, self.padding_mode), img)


class PadToSize(Transform):
    """Pad to ``size`` (h, w); ``offset`` (top, left) places the image (None: centred)."""

    def __init__(self, size, offset=None, fill_value=0, padding_mode=Border.CONSTANT):
        self.size = _hw(_size(size, "PadToSize"))
        if isinstance(offset, numbers.Integral):
            offset = (offset, offset)
        self.offset, self.fill_value = offset, fill_value
        self.padding_mode = Border(padding_mode)

    def __call__(self, img):
        a = as_array(img, "PadToSize")
        th, tw = self.size
        h, w = a.shape[:2]
        if h > th or w > tw:
            raise DataError("image larger than the target size", op="PadToSize",
                            expected=f"at most {self.size}", got=(h, w))
        top, left = ((th - h) // 2, (tw - w) // 2) if self.offset is None else self.offset
        if top + h > th or left + w > tw:
            raise DataError("offset pushes the image out", op="PadToSize",
                            expected=f"offset + image size <= {self.size}", got=self.offset)
        ltrb = (left, top, tw - w - left, th - h - top)
        return restore(pad(a, ltrb, self.fill_value, self.padding_mode), img)


class RandomCrop(RandomTransform):
    """A random ``size`` region after ``padding``; ``pad_if_needed`` pads a smaller image."""

    def __init__(self, size, padding=None, pad_if_needed=False, fill_value=0,
                 padding_mode=Border.CONSTANT):
        self.size = _hw(_size(size, "RandomCrop"))
        self.padding = _padding(padding, "RandomCrop") if padding is not None else (0,) * 4
        self.pad_if_needed, self.fill_value = bool(pad_if_needed), fill_value
        self.padding_mode = Border(padding_mode)

    def window(self, h, w):
        """(top, left) of the crop in the padded image of shape (h, w)."""
        th, tw = self.size
        g = rng()
        return int(g.integers(0, h - th + 1)), int(g.integers(0, w - tw + 1))

    def _padded(self, a):
        left, top, right, bottom = self.padding
        th, tw = self.size
        h, w = a.shape[0] + top + bottom, a.shape[1] + left + right
        if self.pad_if_needed:
            extra_h, extra_w = max(th - h, 0), max(tw - w, 0)
            left, right = left + extra_w, right + extra_w
            top, bottom = top + extra_h, bottom + extra_h
        a = pad(a, (left, top, right, bottom), self.fill_value, self.padding_mode) \
            if any((left, top, right, bottom)) else a
        if a.shape[0] < th or a.shape[1] < tw:
            raise DataError("image smaller than the crop", op="RandomCrop",
                            expected=f"at least {self.size}", got=a.shape[:2],
                            hint="pass padding or pad_if_needed=True")
        return a, (left, top)

    def __call__(self, img):
        a, _ = self._padded(as_array(img, "RandomCrop"))
        top, left = self.window(*a.shape[:2])
        th, tw = self.size
        return restore(a[top:top + th, left:left + tw], img)


class ResizedCrop(Transform):
    """Crop (top, left, height, width), then resize to ``size``."""

    def __init__(self, top, left, height, width, size, interpolation=Inter.BILINEAR):
        self.box = (int(top), int(left), int(height), int(width))
        self.size, self.interpolation = _size(size, "ResizedCrop"), Inter(interpolation)

    def __call__(self, img):
        a = as_array(img, "ResizedCrop")
        top, left, h, w = self.box
        crop = a[top:top + h, left:left + w]
        return restore(resize(crop, _hw(self.size), self.interpolation), img)


class RandomResizedCrop(RandomTransform):
    """A random region of ``scale`` of the area and aspect ``ratio``, resized to ``size``
    (after ``max_attempts`` failed draws, the central crop clamped to ``ratio``)."""

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3.0 / 4.0, 4.0 / 3.0),
                 interpolation=Inter.BILINEAR, max_attempts=10):
        self.size = _hw(_size(size, "RandomResizedCrop"))
        if not 0 <= scale[0] <= scale[1] or not 0 < ratio[0] <= ratio[1]:
            raise DataError("bad scale or ratio", op="RandomResizedCrop",
                            expected="(min, max) with 0 < min <= max", got=(scale, ratio))
        self.scale, self.ratio = tuple(scale), tuple(ratio)
        self.interpolation, self.max_attempts = Inter(interpolation), int(max_attempts)

    def box(self, h, w):
        """(top, left, height, width) of the drawn crop."""
        g, area = rng(), h * w
        log_ratio = (math.log(self.ratio[0]), math.log(self.ratio[1]))
        for _ in range(self.max_attempts):
            target = area * g.uniform(*self.scale)
            aspect = math.exp(g.uniform(*log_ratio))
            cw, ch = int(round(math.sqrt(target * aspect))), int(round(math.sqrt(target / aspect)))
            if 0 < cw <= w and 0 < ch <= h:
                return int(g.integers(0, h - ch + 1)), int(g.integers(0, w - cw + 1)), ch, cw
        in_ratio = w / h
        if in_ratio < self.ratio[0]:
            cw, ch = w, int(round(w / self.ratio[0]))
        elif in_ratio > self.ratio[1]:
            ch, cw = h, int(round(h * self.ratio[1]))
        else:
            cw, ch = w, h
        return (h - ch) // 2, (w - cw) // 2, ch, cw

    def __call__(self, img):
        a = as_array(img, "RandomResizedCrop")
        top, left, ch, cw = self.box(*a.shape[:2])
        return restore(resize(a[top:top + ch, left:left + cw], self.size, self.interpolation),
                       img)


class RandomCropDecodeResize(RandomResizedCrop):
    """``Decode`` then ``RandomResizedCrop`` (one op in MindSpore, for speed)."""

    def __call__(self, data):
        return super().__call__(decode_image(np.asarray(data)))


class HorizontalFlip(Transform):
    def __call__(self, img):
        return restore(np.ascontiguousarray(as_array(img, "HorizontalFlip")[:, ::-1]), img)


class VerticalFlip(Transform):
    def __call__(self, img):
        return restore(np.ascontiguousarray(as_array(img, "VerticalFlip")[::-1]), img)


class RandomHorizontalFlip(RandomTransform):
    def __init__(self, prob=0.5):
        self.prob = check_prob(prob, "RandomHorizontalFlip")

    def __call__(self, img):
        return HorizontalFlip()(img) if rng().random() < self.prob else img


class RandomVerticalFlip(RandomTransform):
    def __init__(self, prob=0.5):
        self.prob = check_prob(prob, "RandomVerticalFlip")

    def __call__(self, img):
        return VerticalFlip()(img) if rng().random() < self.prob else img


def _fill(fill_value, a):
    bands = 1 if a.ndim == 2 else a.shape[2]
    if np.ndim(fill_value) == 0:
        return fill_value if bands == 1 else (int(fill_value),) * bands
    return tuple(int(v) for v in fill_value)


def _per_band(a, fn):
    """Apply a PIL operation ``fn(pil) -> pil`` to a uint8 image, or band by band (float
    mode "F") to any other dtype."""
    from PIL import Image
    if a.dtype == np.uint8 and (a.ndim == 2 or a.shape[2] in (3, 4)):
        return np.asarray(fn(Image.fromarray(a), False))
    planes = a[..., None] if a.ndim == 2 else a
    out = np.stack([np.asarray(fn(Image.fromarray(planes[..., c].astype(np.float32), "F"),
                                  True)) for c in range(planes.shape[2])], -1)
    out = out.astype(a.dtype)
    return out[..., 0] if a.ndim == 2 else out


class Rotate(Transform):
    """Rotate counter-clockwise by ``degrees`` about ``center`` (x, y; default the middle);
    ``expand`` grows the canvas to hold the whole image."""

    def __init__(self, degrees, resample=Inter.NEAREST, expand=False, center=None,
                 fill_value=0):
        self.degrees, self.resample = float(degrees), Inter(resample)
        self.expand, self.center, self.fill_value = bool(expand), center, fill_value

    def rotate(self, a, angle):
        flt = pil_filter(self.resample if self.resample in (Inter.NEAREST, Inter.BILINEAR,
                                                             Inter.BICUBIC) else Inter.NEAREST)

        def fn(pil, single):
            fill = np.asarray(self.fill_value).flat[0] if single else _fill(self.fill_value, a)
            return pil.rotate(angle, flt, self.expand, self.center, fillcolor=fill)
        return _per_band(a, fn)

    def __call__(self, img):
        return restore(self.rotate(as_array(img, "Rotate"), self.degrees), img)


class RandomRotation(Rotate, RandomTransform):
    """``Rotate`` by an angle drawn from ``degrees`` (d: [-d, d]; or (min, max))."""
    random = True

    def __init__(self, degrees, resample=Inter.NEAREST, expand=False, center=None,
                 fill_value=0):
        if isinstance(degrees, numbers.Number):
            if degrees < 0:
                raise DataError("bad degrees", op="RandomRotation", expected="a number >= 0",
                                got=degrees)
            degrees = (-degrees, degrees)
        super().__init__(0.0, resample, expand, center, fill_value)
        self.range = (float(degrees[0]), float(degrees[1]))

    def __call__(self, img):
        return restore(self.rotate(as_array(img, "RandomRotation"), rng().uniform(*self.range)),
                       img)


def affine_matrix(center, angle, translate, scale, shear):
    """Pillow's 6 AFFINE coefficients (output pixel -> input pixel) of: rotate ``angle``
    degrees clockwise and shear (sx, sy) degrees about ``center``, scale, then translate
    (torchvision's inverse matrix, whose convention MindSpore's ``Affine`` follows)."""
    cx, cy = center
    tx, ty = translate
    rot, sx, sy = math.radians(angle), math.radians(shear[0]), math.radians(shear[1])
    a = math.cos(rot - sy) / math.cos(sy)
    b = -math.cos(rot - sy) * math.tan(sx) / math.cos(sy) - math.sin(rot)
    c = math.sin(rot - sy) / math.cos(sy)
    d = -math.sin(rot - sy) * math.tan(sx) / math.cos(sy) + math.cos(rot)
    m = [d / scale, -b / scale, 0.0, -c / scale, a / scale, 0.0]   # det([[a, b], [c, d]]) = 1
    m[2] += m[0] * (-cx - tx) + m[1] * (-cy - ty) + cx
    m[5] += m[3] * (-cx - tx) + m[4] * (-cy - ty) + cy
    return tuple(m)


def warp_affine(a, angle, translate, scale, shear, resample, fill_value):
    from PIL import Image
    h, w = a.shape[:2]
    coeffs = affine_matrix((w * 0.5, h * 0.5), angle, translate, scale, shear)
    flt = pil_filter(resample if Inter(resample) in (Inter.NEAREST, Inter.BILINEAR,
                                                     Inter.BICUBIC) else Inter.NEAREST)

    def fn(pil, single):
        fill = np.asarray(fill_value).flat[0] if single else _fill(fill_value, a)
        return pil.transform((w, h), Image.AFFINE, coeffs, flt, fillcolor=fill)
    return _per_band(a, fn)


def _shear(shear):
    if isinstance(shear, numbers.Number):
        return (float(shear), 0.0)
    shear = tuple(float(s) for s in shear)
    return shear if len(shear) == 2 else (shear[0], 0.0)


class Affine(Transform):
    """Rotate ``degrees`` clockwise, translate by ``translate`` (tx, ty) fractions of the
    width and height (in [-1, 1]), ``scale`` and ``shear`` (degrees; a number or (x, y))
    about the image centre."""

    def __init__(self, degrees, translate, scale, shear, resample=Inter.NEAREST,
                 fill_value=0):
        self.degrees, self.translate = float(degrees), tuple(float(t) for t in translate)
        if len(self.translate) != 2 or any(abs(t) > 1 for t in self.translate):
            raise DataError("bad translate", op="Affine", expected="two fractions in [-1, 1]",
                            got=translate)
        if scale <= 0:
            raise DataError("bad scale", op="Affine", expected="> 0", got=scale)
        self.scale, self.shear = float(scale), _shear(shear)
        self.resample, self.fill_value = Inter(resample), fill_value

    def __call__(self, img):
        a = as_array(img, "Affine")
        shift = (self.translate[0] * a.shape[1], self.translate[1] * a.shape[0])
        return restore(warp_affine(a, self.degrees, shift, self.scale, self.shear,
                                   self.resample, self.fill_value), img)


class RandomAffine(RandomTransform):
    """``Affine`` with parameters drawn per image: ``degrees`` d or (min, max); ``translate``
    (max_dx, max_dy) fractions of the size (or 4 values: x range then y range); ``scale``
    (min, max); ``shear`` d, (min, max) on x, or (xmin, xmax, ymin, ymax)."""

    def __init__(self, degrees, translate=None, scale=None, shear=None,
                 resample=Inter.NEAREST, fill_value=0):
        self.degrees = (-float(degrees), float(degrees)) \
            if isinstance(degrees, numbers.Number) else tuple(map(float, degrees))
        if translate is not None and len(translate) == 2:
            translate = (-translate[0], translate[0], -translate[1], translate[1])
        self.translate, self.scale = translate, scale
        if isinstance(shear, numbers.Number):
            shear = (-shear, shear, 0.0, 0.0)
        elif shear is not None and len(shear) == 2:
            shear = (shear[0], shear[1], 0.0, 0.0)
        self.shear, self.resample, self.fill_value = shear, Inter(resample), fill_value

    def params(self, h, w):
        g = rng()
        angle = g.uniform(*self.degrees)
        tx = ty = 0.0
        if self.translate is not None:
            tx = round(g.uniform(self.translate[0], self.translate[1]) * w)
            ty = round(g.uniform(self.translate[2], self.translate[3]) * h)
        scale = g.uniform(*self.scale) if self.scale is not None else 1.0
        shear = (0.0, 0.0)
        if self.shear is not None:
            shear = (g.uniform(self.shear[0], self.shear[1]),
                     g.uniform(self.shear[2], self.shear[3]))
        return angle, (tx, ty), scale, shear

    def __call__(self, img):
        a = as_array(img, "RandomAffine")
        angle, translate, scale, shear = self.params(*a.shape[:2])
        return restore(warp_affine(a, angle, translate, scale, shear, self.resample,
                                   self.fill_value), img)


def perspective_coeffs(start_points, end_points):
    """Pillow's 8 PERSPECTIVE coefficients mapping output ``end_points`` to input
    ``start_points`` (four (x, y) corners each)."""
    rows, rhs = [], []
    for (x, y), (u, v) in zip(end_points, start_points):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        rhs += [u, v]
    return np.linalg.solve(np.asarray(rows, float), np.asarray(rhs, float)).tolist()


def warp_perspective(a, start_points, end_points, interpolation):
    from PIL import Image
    h, w = a.shape[:2]
    coeffs = perspective_coeffs(start_points, end_points)
    flt = pil_filter(interpolation if Inter(interpolation) in (
        Inter.NEAREST, Inter.BILINEAR, Inter.BICUBIC) else Inter.BILINEAR)
    return _per_band(a, lambda pil, single: pil.transform((w, h), Image.PERSPECTIVE, coeffs,
                                                          flt))


class Perspective(Transform):
    """Warp so that ``start_points`` (4 (x, y) corners) land on ``end_points``."""

    def __init__(self, start_points, end_points, interpolation=Inter.BILINEAR):
        if len(start_points) != 4 or len(end_points) != 4:
            raise DataError("bad points", op="Perspective", expected="4 (x, y) points each",
                            got=(start_points, end_points))
        self.start_points, self.end_points = start_points, end_points
        self.interpolation = Inter(interpolation)

    def __call__(self, img):
        a = as_array(img, "Perspective")
        return restore(warp_perspective(a, self.start_points, self.end_points,
                                        self.interpolation), img)


class RandomPerspective(RandomTransform):
    """With probability ``prob``, move each corner inwards by up to ``distortion_scale`` of
    half the size and warp accordingly."""

    def __init__(self, distortion_scale=0.5, prob=0.5, interpolation=Inter.BICUBIC):
        self.distortion_scale = check_prob(distortion_scale, "RandomPerspective")
        self.prob, self.interpolation = check_prob(prob, "RandomPerspective"), Inter(interpolation)

    def __call__(self, img):
        g = rng()
        if g.random() >= self.prob:
            return img
        a = as_array(img, "RandomPerspective")
        h, w = a.shape[:2]
        dw, dh = int(self.distortion_scale * w // 2), int(self.distortion_scale * h // 2)
        start = [(0, 0), (w - 1, 0), (w - 1, h - 1), (0, h - 1)]
        end = [(int(g.integers(0, dw + 1)), int(g.integers(0, dh + 1))),
               (w - 1 - int(g.integers(0, dw + 1)), int(g.integers(0, dh + 1))),
               (w - 1 - int(g.integers(0, dw + 1)), h - 1 - int(g.integers(0, dh + 1))),
               (int(g.integers(0, dw + 1)), h - 1 - int(g.integers(0, dh + 1)))]
        return restore(warp_perspective(a, start, end, self.interpolation), img)


class FiveCrop(Transform):
    """The four corner crops and the central one, as a tuple (top-left, top-right,
    bottom-left, bottom-right, centre)."""

    def __init__(self, size):
        self.size = _hw(_size(size, "FiveCrop"))

    def __call__(self, img):
        a = as_array(img, "FiveCrop")
        th, tw = self.size
        h, w = a.shape[:2]
        if th > h or tw > w:
            raise DataError("crop larger than the image", op="FiveCrop",
                            expected=f"at most {(h, w)}", got=self.size)
        crops = [a[:th, :tw], a[:th, w - tw:], a[h - th:, :tw], a[h - th:, w - tw:],
                 CenterCrop(self.size)(a)]
        return tuple(restore(c, img) for c in crops)


class TenCrop(Transform):
    """``FiveCrop`` of the image and of its mirror (vertical with ``use_vertical_flip``)."""

    def __init__(self, size, use_vertical_flip=False):
        self.five, self.vertical = FiveCrop(size), bool(use_vertical_flip)

    def __call__(self, img):
        flip = VerticalFlip() if self.vertical else HorizontalFlip()
        return self.five(img) + self.five(flip(img))


class SlicePatches(Transform):
    """Cut the image into ``num_height`` x ``num_width`` patches (row by row), padding the
    bottom/right with ``fill_value`` (SliceMode.PAD) or dropping the rest (DROP)."""

    def __init__(self, num_height=1, num_width=1, slice_mode=SliceMode.PAD, fill_value=0):
        self.nh, self.nw = int(num_height), int(num_width)
        if self.nh < 1 or self.nw < 1:
            raise DataError("bad patch counts", op="SlicePatches", expected="ints >= 1",
                            got=(num_height, num_width))
        self.mode, self.fill_value = SliceMode(slice_mode), fill_value

    def __call__(self, img):
        a = as_array(img, "SlicePatches")
        h, w = a.shape[:2]
        if self.mode is SliceMode.PAD:
            ph, pw = -(-h // self.nh), -(-w // self.nw)
            a = pad(a, (0, 0, pw * self.nw - w, ph * self.nh - h), self.fill_value,
                    Border.CONSTANT)
        else:
            ph, pw = h // self.nh, w // self.nw
        patches = tuple(a[i * ph:(i + 1) * ph, j * pw:(j + 1) * pw]
                        for i in range(self.nh) for j in range(self.nw))
        return patches if len(patches) > 1 else patches[0]
