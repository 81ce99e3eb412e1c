"""Vision transforms on HWC NumPy images (uint8 unless said otherwise), Pillow for the
resampling. Random ones draw from the sample's generator (see
:mod:`sporeling.data.randomness`), so they are reproducible whatever the workers::

    >>> import numpy as np
    >>> img = np.arange(4 * 6 * 3, dtype=np.uint8).reshape(4, 6, 3)
    >>> CenterCrop(2)(img).shape, HWC2CHW()(img).shape
    ((2, 2, 3), (3, 4, 6))
    >>> Normalize([0, 0, 0], [255, 255, 255])(img).dtype
    dtype('float32')
"""
from __future__ import annotations

import io
import math

import numpy as np

from ..errors import CorruptSampleError, DataError
from ..randomness import sample_rng

__all__ = ["Decode", "decode_image", "Resize", "CenterCrop", "RandomCrop",
           "RandomResizedCrop", "RandomHorizontalFlip", "RandomVerticalFlip",
           "RandomRotation", "Normalize", "Rescale", "HWC2CHW", "ToType"]

_FILTERS = {"nearest": 0, "bilinear": 2, "bicubic": 3, "lanczos": 1, "box": 4}


def _size(size, op: str) -> tuple[int, int]:
    if isinstance(size, int) and not isinstance(size, bool):
        size = (size, size)
    if len(size) != 2 or any(not isinstance(s, int) or s < 1 for s in size):
        raise DataError("bad size", op=op, expected="an int or (height, width) ints >= 1",
                        got=repr(size))
    return int(size[0]), int(size[1])


def _image(img, op: str) -> np.ndarray:
    img = np.asarray(img)
    if img.ndim not in (2, 3):
        raise DataError("not an image", op=op, expected="an (H, W) or (H, W, C) array",
                        got=img.shape)
    return img


def _filter(name: str, op: str) -> int:
    if name not in _FILTERS:
        raise DataError("bad interpolation", op=op, expected=sorted(_FILTERS), got=repr(name))
    return _FILTERS[name]


def decode_image(data, where: str | None = None) -> np.ndarray:
    """Encoded image bytes (a uint8 array or ``bytes``) to RGB pixels (H, W, 3) uint8."""
    from PIL import Image, UnidentifiedImageError
    raw = data.tobytes() if isinstance(data, np.ndarray) else bytes(data)
    try:
        with Image.open(io.BytesIO(raw)) as im:
            im.load()
            if im.mode != "RGB":  # convert("RGB") on an RGB image would copy it again
                im = im.convert("RGB")
            w, h = im.size
            # one copy out of Pillow (``np.asarray(im)`` goes through a slower interface)
            return np.frombuffer(im.tobytes(), np.uint8).reshape(h, w, 3)
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as exc:
        raise CorruptSampleError(f"cannot decode image: {exc}", op="Decode",
                                 where=where or f"{len(raw)} bytes") from exc


def _resample(img: np.ndarray, size_hw, flt: int, box=None) -> np.ndarray:
    """Resize ``img`` (optionally its ``box`` = (left, top, right, bottom)) with Pillow."""
    from PIL import Image
    h, w = size_hw
    if img.dtype == np.uint8:
        return np.asarray(Image.fromarray(img).resize((w, h), flt, box=box))
    planes = img[..., None] if img.ndim == 2 else img
    out = [np.asarray(Image.fromarray(planes[..., c].astype(np.float32), "F")
                      .resize((w, h), flt, box=box)) for c in range(planes.shape[-1])]
    out = np.stack(out, -1).astype(img.dtype)
    return out[..., 0] if img.ndim == 2 else out


class Decode:
    """Encoded bytes (JPEG, PNG, ...) to RGB (H, W, 3) uint8."""

    def __call__(self, data):
        return decode_image(data)


class Resize:
    """To ``size`` (h, w), or with an int, the shorter side to ``size`` keeping the ratio."""

    def __init__(self, size, interpolation: str = "bilinear"):
        self.size = size if isinstance(size, int) and not isinstance(size, bool) \
            else _size(size, "Resize")
        if isinstance(self.size, int) and self.size < 1:
            raise DataError("bad size", op="Resize", expected="an int >= 1", got=size)
        self.flt = _filter(interpolation, "Resize")

    def __call__(self, img):
        img = _image(img, "Resize")
        h, w = img.shape[:2]
        if isinstance(self.size, int):
            s = self.size
            size = (s, max(1, round(w * s / h))) if h <= w else (max(1, round(h * s / w)), s)
        else:
            size = self.size
        return _resample(img, size, self.flt)


class CenterCrop:
    """The central ``size`` region (padded with zeros when the image is smaller)."""

    def __init__(self, size):
        self.size = _size(size, "CenterCrop")

    def __call__(self, img):
        img = _image(img, "CenterCrop")
        th, tw = self.size
        h, w = img.shape[:2]
        if h < th or w < tw:
            ph, pw = max(th - h, 0), max(tw - w, 0)
            img = np.pad(img, [(ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2)] +
                         [(0, 0)] * (img.ndim - 2))
            h, w = img.shape[:2]
        top, left = (h - th) // 2, (w - tw) // 2
        return img[top:top + th, left:left + tw]


class RandomCrop:
    """A random ``size`` region, after ``padding`` (int, (pad_h, pad_w) or (left, top,
    right, bottom)) with ``fill_value`` or the ``padding_mode`` "edge"/"reflect"/"symmetric"."""

    def __init__(self, size, padding=None, pad_if_needed: bool = False, fill_value=0,
                 padding_mode: str = "constant"):
        self.size = _size(size, "RandomCrop")
        if padding is None:
            pad = (0, 0, 0, 0)
        elif isinstance(padding, int):
            pad = (padding,) * 4
        elif len(padding) == 2:
            pad = (padding[1], padding[0], padding[1], padding[0])
        else:
            pad = tuple(padding)
        if len(pad) != 4 or any(p < 0 for p in pad):
            raise DataError("bad padding", op="RandomCrop", expected="ints >= 0",
                            got=repr(padding))
        if padding_mode not in ("constant", "edge", "reflect", "symmetric"):
            raise DataError("bad padding_mode", op="RandomCrop",
                            expected="constant, edge, reflect or symmetric", got=padding_mode)
        self.pad, self.pad_if_needed = pad, bool(pad_if_needed)
        self.fill, self.mode = fill_value, padding_mode

    def _pad(self, img, left, top, right, bottom):
        if not (left or top or right or bottom):
            return img
        widths = [(top, bottom), (left, right)] + [(0, 0)] * (img.ndim - 2)
        if self.mode == "constant":
            return np.pad(img, widths, constant_values=self.fill)
        return np.pad(img, widths, mode=self.mode)

    def __call__(self, img):
        img = _image(img, "RandomCrop")
        left, top, right, bottom = self.pad
        th, tw = self.size
        h, w = img.shape[:2]
        if self.pad_if_needed:
            right += max(tw - (w + left + right), 0)
            bottom += max(th - (h + top + bottom), 0)
        ph, pw = h + top + bottom, w + left + right
        if ph < th or pw < tw:
            raise DataError("image smaller than the crop", op="RandomCrop",
                            expected=f"at least {self.size}", got=(ph, pw),
                            hint="pass padding or pad_if_needed=True")
        # one scalar draw split in two: ~1 us, against ~5 us for integers() with array bounds
        y, x = divmod(int(sample_rng().integers((ph - th + 1) * (pw - tw + 1))), pw - tw + 1)
        if self.mode != "constant":
            return self._pad(img, left, top, right, bottom)[y:y + th, x:x + tw]
        # constant padding: copy only the window's overlap with the image (no padded copy)
        out = np.full((th, tw) + img.shape[2:], self.fill, img.dtype)
        y0, x0 = max(y - top, 0), max(x - left, 0)
        y1, x1 = min(y - top + th, h), min(x - left + tw, w)
        if y1 > y0 and x1 > x0:
            out[y0 + top - y:y1 + top - y, x0 + left - x:x1 + left - x] = img[y0:y1, x0:x1]
        return out


class RandomResizedCrop:
    """A random region covering ``scale`` of the area with aspect ``ratio``, resized to
    ``size`` (the Inception crop; after 10 failed draws, the central crop)."""

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3 / 4, 4 / 3),
                 interpolation: str = "bilinear", max_attempts: int = 10):
        self.size = _size(size, "RandomResizedCrop")
        if not 0 < scale[0] <= scale[1] or not 0 < ratio[0] <= ratio[1]:
            raise DataError("bad scale or ratio", op="RandomResizedCrop",
                            expected="(min, max) with 0 < min <= max", got=(scale, ratio))
        self.scale, self.ratio = scale, ratio
        self.flt, self.attempts = _filter(interpolation, "RandomResizedCrop"), max_attempts

    def _box(self, h, w):
        rng, area = sample_rng(), h * w
        log_ratio = (math.log(self.ratio[0]), math.log(self.ratio[1]))
        for _ in range(self.attempts):
            target = area * rng.uniform(*self.scale)
            aspect = math.exp(rng.uniform(*log_ratio))
            cw, ch = round(math.sqrt(target * aspect)), round(math.sqrt(target / aspect))
            if 0 < cw <= w and 0 < ch <= h:
                top, left = int(rng.integers(0, h - ch + 1)), int(rng.integers(0, w - cw + 1))
                return left, top, left + cw, top + ch
        in_ratio = w / h
        if in_ratio < self.ratio[0]:
            cw, ch = w, round(w / self.ratio[0])
        elif in_ratio > self.ratio[1]:
            ch, cw = h, round(h * self.ratio[1])
        else:
            cw, ch = w, h
        top, left = (h - ch) // 2, (w - cw) // 2
        return left, top, left + cw, top + ch

    def __call__(self, img):
        img = _image(img, "RandomResizedCrop")
        box = self._box(*img.shape[:2])
        return _resample(img, self.size, self.flt, box=box)


class RandomHorizontalFlip:
    """Mirror left-right with probability ``prob``."""

    def __init__(self, prob: float = 0.5):
        self.prob = float(prob)

    def __call__(self, img):
        img = _image(img, "RandomHorizontalFlip")
        return img[:, ::-1] if sample_rng().random() < self.prob else img


class RandomVerticalFlip:
    """Mirror top-bottom with probability ``prob``."""

    def __init__(self, prob: float = 0.5):
        self.prob = float(prob)

    def __call__(self, img):
        img = _image(img, "RandomVerticalFlip")
        return img[::-1] if sample_rng().random() < self.prob else img


class RandomRotation:
    """Rotate by an angle drawn from ``degrees`` (a number d: [-d, d]; or (min, max)),
    counter-clockwise, filling with ``fill_value``; ``expand`` grows the canvas to fit."""

    def __init__(self, degrees, resample: str = "nearest", expand: bool = False,
                 center=None, fill_value=0):
        if isinstance(degrees, (int, float)):
            degrees = (-abs(degrees), abs(degrees))
        if len(degrees) != 2 or degrees[0] > degrees[1]:
            raise DataError("bad degrees", op="RandomRotation",
                            expected="a number or (min, max)", got=repr(degrees))
        self.degrees, self.flt = tuple(map(float, degrees)), _filter(resample, "RandomRotation")
        self.expand, self.center, self.fill = bool(expand), center, fill_value

    def __call__(self, img):
        from PIL import Image
        img = _image(img, "RandomRotation")
        if img.dtype != np.uint8:
            raise DataError("RandomRotation works on uint8 images", op="RandomRotation",
                            expected="uint8", got=str(img.dtype),
                            hint="rotate before Normalize/ToType")
        angle = sample_rng().uniform(*self.degrees)
        fill = self.fill if img.ndim == 2 or np.ndim(self.fill) else (self.fill,) * img.shape[2]
        out = Image.fromarray(img).rotate(angle, self.flt, self.expand, self.center,
                                          fillcolor=fill)
        return np.asarray(out)


class Normalize:
    """``(img - mean) / std`` per channel, as float32 (MindSpore's convention: mean and
    std in the pixels' own scale, e.g. 0..255)."""

    def __init__(self, mean, std, is_hwc: bool = True):
        self.mean, self.std = np.asarray(mean, np.float32), np.asarray(std, np.float32)
        if self.mean.shape != self.std.shape or self.mean.ndim != 1 or (self.std <= 0).any():
            raise DataError("bad mean/std", op="Normalize",
                            expected="two equal-length lists, std > 0",
                            got=(list(mean), list(std)))
        self.is_hwc = bool(is_hwc)
        self._scale = (1.0 / self.std).astype(np.float32)
        # the broadcast shapes, made once: (1, 1, C) for HWC, (C, 1, 1) for CHW
        shape = (1, 1, -1) if self.is_hwc else (-1, 1, 1)
        self._hwc = (self.mean.reshape(shape), self._scale.reshape(shape))
        self._chw = (self.mean.reshape(-1, 1, 1), self._scale.reshape(-1, 1, 1))

    def __call__(self, img):
        img = _image(img, "Normalize")
        # one channel: a single mean/std broadcasts
        mean, scale = (self.mean, self._scale) if img.ndim == 2 else self._hwc
        # the cast happens inside the subtraction (as ``astype`` would: unsafe casting)
        out = np.subtract(img, mean, dtype=np.float32, casting="unsafe")
        out *= scale
        return out

    def to_chw(self, img):
        """``HWC2CHW()(self(img))`` in one pass over the pixels (what ``map`` runs for a
        ``Normalize`` followed by ``HWC2CHW``; the numbers are identical)."""
        img = _image(img, "Normalize")
        if img.ndim != 3 or not self.is_hwc:
            return HWC2CHW()(self(img))
        mean, scale = self._chw
        out = np.empty((img.shape[2],) + img.shape[:2], np.float32)
        np.subtract(img.transpose(2, 0, 1), mean, out=out, dtype=np.float32, casting="unsafe")
        out *= scale
        return out


class Rescale:
    """``img * rescale + shift`` as float32 (``Rescale(1 / 255, 0)`` maps pixels to [0, 1])."""

    def __init__(self, rescale: float, shift: float):
        self.rescale, self.shift = np.float32(rescale), np.float32(shift)

    def __call__(self, img):
        return np.asarray(img, np.float32) * self.rescale + self.shift


class HWC2CHW:
    """(H, W, C) to (C, H, W), contiguous."""

    def __call__(self, img):
        img = np.asarray(img)
        if img.ndim != 3:
            raise DataError("HWC2CHW needs a 3-D image", op="HWC2CHW",
                            expected="(H, W, C)", got=img.shape)
        return np.ascontiguousarray(img.transpose(2, 0, 1))


class ToType:
    """Cast to ``data_type`` (a NumPy dtype or its name)."""

    def __init__(self, data_type):
        try:
            self.dtype = np.dtype(data_type)
        except TypeError:
            raise DataError("bad data_type", op="ToType", expected="a NumPy dtype",
                            got=repr(data_type)) from None

    def __call__(self, data):
        return np.asarray(data).astype(self.dtype)
