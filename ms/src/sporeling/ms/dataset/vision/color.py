"""Colour vision transforms (MindSpore 2.10's names): Pillow's ImageEnhance/ImageOps where
MindSpore matches them (brightness, contrast, saturation, sharpness, autocontrast,
equalize, posterize), NumPy for the rest. Images are RGB HWC uint8 unless said otherwise."""
from __future__ import annotations

import numbers

import numpy as np

from sporeling.data import DataError

from ._enums import ConvertMode
from ._util import RandomTransform, Transform, as_array, check_prob, pair, restore, rng, to_pil

__all__ = ["AdjustBrightness", "AdjustContrast", "AdjustGamma", "AdjustHue",
           "AdjustSaturation", "AdjustSharpness", "AutoContrast", "Equalize", "Invert",
           "Posterize", "Solarize", "Grayscale", "RandomGrayscale", "ConvertColor",
           "RgbToHsv", "HsvToRgb", "RandomColorAdjust", "RandomColor", "RandomSharpness",
           "RandomAdjustSharpness", "RandomAutoContrast", "RandomEqualize", "RandomInvert",
           "RandomPosterize", "RandomSolarize", "RandomLighting", "enhance", "adjust_hue"]


def _rgb(img, op):
    a = as_array(img, op)
    if a.dtype != np.uint8:
        raise DataError("expects uint8 pixels", op=op, expected="uint8", got=str(a.dtype),
                        hint="apply colour transforms before Normalize/Rescale")
    return a


def _like(out_pil, a):
    out = np.asarray(out_pil)
    return out[..., None] if a.ndim == 3 and out.ndim == 2 else out


def enhance(img, kind: str, factor: float, op: str):
    """Pillow's ``ImageEnhance.<kind>(image).enhance(factor)``: a blend of the image with a
    degenerate one (black, the mean grey, grey levels, a smoothed image)."""
    from PIL import ImageEnhance
    if factor < 0:
        raise DataError("bad factor", op=op, expected="a number >= 0", got=factor)
    a = _rgb(img, op)
    out = getattr(ImageEnhance, kind)(to_pil(a)).enhance(float(factor))
    return restore(_like(out, a), img)


def adjust_hue(img, factor: float, op="AdjustHue"):
    from PIL import Image
    if not -0.5 <= factor <= 0.5:
        raise DataError("bad hue_factor", op=op, expected="a number in [-0.5, 0.5]",
                        got=factor)
    a = _rgb(img, op)
    if a.ndim == 2 or a.shape[2] == 1 or factor == 0:
        return img  # no hue to turn (and no lossy HSV round trip for a zero turn)
    h, s, v = Image.fromarray(a[..., :3]).convert("HSV").split()
    # the hue byte wraps around (a uint8 add, as torchvision's PIL path does)
    h = Image.fromarray(((np.asarray(h).astype(np.int16) + int(factor * 255)) % 256)
                        .astype(np.uint8))
    out = np.asarray(Image.merge("HSV", (h, s, v)).convert("RGB"))
    return restore(out, img)


class AdjustBrightness(Transform):
    def __init__(self, brightness_factor):
        self.factor = float(brightness_factor)

    def __call__(self, img):
        return enhance(img, "Brightness", self.factor, "AdjustBrightness")


class AdjustContrast(Transform):
    def __init__(self, contrast_factor):
        self.factor = float(contrast_factor)

    def __call__(self, img):
        return enhance(img, "Contrast", self.factor, "AdjustContrast")


class AdjustSaturation(Transform):
    def __init__(self, saturation_factor):
        self.factor = float(saturation_factor)

    def __call__(self, img):
        return enhance(img, "Color", self.factor, "AdjustSaturation")


class AdjustSharpness(Transform):
    def __init__(self, sharpness_factor):
        self.factor = float(sharpness_factor)

    def __call__(self, img):
        return enhance(img, "Sharpness", self.factor, "AdjustSharpness")


class AdjustHue(Transform):
    """Shift the hue by ``hue_factor`` of a full turn (in [-0.5, 0.5])."""

    def __init__(self, hue_factor):
        self.factor = float(hue_factor)

    def __call__(self, img):
        return adjust_hue(img, self.factor)


class AdjustGamma(Transform):
    """``255 * gain * (img / 255) ** gamma`` (float images: ``gain * img ** gamma``)."""

    def __init__(self, gamma, gain=1.0):
        if gamma < 0:
            raise DataError("bad gamma", op="AdjustGamma", expected="a number >= 0", got=gamma)
        self.gamma, self.gain = float(gamma), float(gain)

    def __call__(self, img):
        a = as_array(img, "AdjustGamma")
        if a.dtype == np.uint8:
            table = np.clip(np.rint(255.0 * self.gain * (np.arange(256) / 255.0) ** self.gamma),
                            0, 255).astype(np.uint8)
            return restore(table[a], img)
        return restore((self.gain * np.power(a, self.gamma)).astype(a.dtype), img)


class AutoContrast(Transform):
    """Stretch each channel to 0..255 after cutting ``cutoff`` percent at both ends of
    the histogram; ``ignore`` pixel values are left out of it (Pillow's autocontrast)."""

    def __init__(self, cutoff=0.0, ignore=None):
        if not 0 <= cutoff < 50:
            raise DataError("bad cutoff", op="AutoContrast", expected="in [0, 50)", got=cutoff)
        self.cutoff, self.ignore = float(cutoff), ignore

    def __call__(self, img):
        from PIL import ImageOps
        a = _rgb(img, "AutoContrast")
        return restore(_like(ImageOps.autocontrast(to_pil(a), self.cutoff, self.ignore), a), img)


class Equalize(Transform):
    def __call__(self, img):
        from PIL import ImageOps
        a = _rgb(img, "Equalize")
        return restore(_like(ImageOps.equalize(to_pil(a)), a), img)


class Invert(Transform):
    def __call__(self, img):
        a = _rgb(img, "Invert")
        return restore(255 - a, img)


class Posterize(Transform):
    """Keep the ``bits`` high bits of each channel."""

    def __init__(self, bits):
        if not 0 <= int(bits) <= 8:
            raise DataError("bad bits", op="Posterize", expected="an int in [0, 8]", got=bits)
        self.bits = int(bits)

    def __call__(self, img):
        a = _rgb(img, "Posterize")
        return restore(a & np.uint8((0xFF << (8 - self.bits)) & 0xFF), img)


class Solarize(Transform):
    """Invert the pixels in [min, max] (a number t: [t, 255])."""

    def __init__(self, threshold):
        lo, hi = (float(threshold), 255.0) if isinstance(threshold, numbers.Number) \
            else tuple(map(float, threshold))
        if not 0 <= lo <= hi <= 255:
            raise DataError("bad threshold", op="Solarize", expected="0 <= min <= max <= 255",
                            got=threshold)
        self.range = (lo, hi)

    def __call__(self, img):
        a = _rgb(img, "Solarize")
        lo, hi = self.range
        return restore(np.where((a >= lo) & (a <= hi), 255 - a, a).astype(np.uint8), img)


def gray(a: np.ndarray) -> np.ndarray:
    """ITU-R 601 luma as Pillow's "L" conversion rounds it (299/587/114 per mille)."""
    rgb = a[..., :3].astype(np.uint32)
    return ((rgb[..., 0] * 19595 + rgb[..., 1] * 38470 + rgb[..., 2] * 7471 + 0x8000)
            >> 16).astype(np.uint8)


class Grayscale(Transform):
    """RGB to grey, ``num_output_channels`` 1 or 3 (the grey repeated)."""

    def __init__(self, num_output_channels=1):
        if num_output_channels not in (1, 3):
            raise DataError("bad num_output_channels", op="Grayscale", expected="1 or 3",
                            got=num_output_channels)
        self.channels = num_output_channels

    def __call__(self, img):
        a = _rgb(img, "Grayscale")
        g = gray(a) if a.ndim == 3 and a.shape[2] >= 3 else a.reshape(a.shape[:2])
        return restore(np.repeat(g[..., None], 3, -1) if self.channels == 3 else g, img)


class RandomGrayscale(RandomTransform):
    """``Grayscale`` keeping the channel count, with probability ``prob``."""

    def __init__(self, prob=0.1):
        self.prob = check_prob(prob, "RandomGrayscale")

    def __call__(self, img):
        if rng().random() >= self.prob:
            return img
        a = as_array(img, "RandomGrayscale")
        channels = 3 if a.ndim == 3 and a.shape[2] == 3 else 1
        return Grayscale(channels)(img)


_ORDER = {"RGB": (0, 1, 2), "BGR": (2, 1, 0)}


class ConvertColor(Transform):
    """OpenCV's colour space conversions between BGR, RGB, their alpha forms and grey."""

    def __init__(self, convert_mode):
        self.mode = ConvertMode(convert_mode)

    def __call__(self, img):
        a = as_array(img, "ConvertColor")
        name = self.mode.name[len("COLOR_"):]
        # every alias of the enum value converts the same way; take the listed name's
        src, dst = name.split("2")
        if src == "GRAY":
            g = a.reshape(a.shape[:2])
            out = np.stack([g, g, g] + ([np.full_like(g, 255)] if dst.endswith("A") else []), -1)
        else:
            rgb = a[..., list(_ORDER[src[:3]])]
            if dst == "GRAY":
                out = gray(rgb) if a.dtype == np.uint8 else \
                    (rgb @ np.array([0.299, 0.587, 0.114])).astype(a.dtype)
            else:
                out = rgb[..., list(_ORDER[dst[:3]])]
                if dst.endswith("A"):
                    alpha = a[..., 3:4] if src.endswith("A") else np.full_like(a[..., :1], 255)
                    out = np.concatenate([out, alpha], -1)
        return restore(np.ascontiguousarray(out), img)


def _rgb_to_hsv(rgb):
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    maxc, minc = rgb.max(-1), rgb.min(-1)
    v, delta = maxc, maxc - minc
    s = np.where(maxc > 0, delta / np.where(maxc > 0, maxc, 1), 0)
    safe = np.where(delta > 0, delta, 1)
    h = np.where(maxc == r, (g - b) / safe, np.where(maxc == g, 2.0 + (b - r) / safe,
                                                     4.0 + (r - g) / safe))
    h = np.where(delta > 0, (h / 6.0) % 1.0, 0.0)
    return np.stack([h, s, v], -1)


def _hsv_to_rgb(hsv):
    h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    i = np.floor(h * 6.0)
    f = h * 6.0 - i
    p, q, t = v * (1 - s), v * (1 - s * f), v * (1 - s * (1 - f))
    i = i.astype(int) % 6
    choices = [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)]
    out = [np.select([i == k for k in range(6)], [c[ch] for c in choices]) for ch in range(3)]
    return np.stack(out, -1)


class RgbToHsv(Transform):
    """Float RGB in [0, 1] to HSV in [0, 1] (CHW unless ``is_hwc``; batches too)."""

    def __init__(self, is_hwc=False):
        self.is_hwc = bool(is_hwc)

    def _apply(self, img, fn):
        a = np.asarray(img, dtype=np.float64 if np.asarray(img).dtype.kind != "f"
                       else np.asarray(img).dtype)
        x = a if self.is_hwc else np.moveaxis(a, -3, -1)
        out = fn(x)
        return (out if self.is_hwc else np.moveaxis(out, -1, -3)).astype(a.dtype)

    def __call__(self, img):
        return self._apply(img, _rgb_to_hsv)


class HsvToRgb(RgbToHsv):
    """The inverse of ``RgbToHsv``."""

    def __call__(self, img):
        return self._apply(img, _hsv_to_rgb)


def _factor_range(value, op, what, center=1.0, bound=None):
    if isinstance(value, numbers.Number):
        if value < 0:
            raise DataError(f"bad {what}", op=op, expected="a number >= 0", got=value)
        lo, hi = center - value, center + value
        return (max(lo, 0.0) if bound is None else max(lo, bound[0]), hi)
    return pair(value, op, what)


class RandomColorAdjust(RandomTransform):
    """Brightness, contrast, saturation and hue factors drawn from their ranges (a number
    f: [max(0, 1 - f), 1 + f]; hue h: [-h, h]), applied in a random order."""

    def __init__(self, brightness=(1, 1), contrast=(1, 1), saturation=(1, 1), hue=(0, 0)):
        op = "RandomColorAdjust"
        self.brightness = _factor_range(brightness, op, "brightness")
        self.contrast = _factor_range(contrast, op, "contrast")
        self.saturation = _factor_range(saturation, op, "saturation")
        self.hue = _factor_range(hue, op, "hue", 0.0, (-0.5, 0.5))
        if not -0.5 <= self.hue[0] <= self.hue[1] <= 0.5:
            raise DataError("bad hue", op=op, expected="within [-0.5, 0.5]", got=hue)

    def __call__(self, img):
        g = rng()
        steps = [lambda x, f=g.uniform(*self.brightness): enhance(x, "Brightness", f, "b"),
                 lambda x, f=g.uniform(*self.contrast): enhance(x, "Contrast", f, "c"),
                 lambda x, f=g.uniform(*self.saturation): enhance(x, "Color", f, "s"),
                 lambda x, f=g.uniform(*self.hue): adjust_hue(x, f)]
        for k in g.permutation(4):
            img = steps[k](img)
        return img


class RandomColor(RandomTransform):
    """Saturation (Pillow's ``ImageEnhance.Color``) by a factor drawn from ``degrees``."""
    _kind = "Color"

    def __init__(self, degrees=(0.1, 1.9)):
        self.degrees = pair(degrees, type(self).__name__, "degrees", low=0.0)

    def __call__(self, img):
        return enhance(img, self._kind, rng().uniform(*self.degrees), type(self).__name__)


class RandomSharpness(RandomColor):
    """Sharpness by a factor drawn from ``degrees``."""
    _kind = "Sharpness"


class RandomAdjustSharpness(RandomTransform):
    """``AdjustSharpness(degree)`` with probability ``prob``."""

    def __init__(self, degree, prob=0.5):
        self.degree, self.prob = float(degree), check_prob(prob, "RandomAdjustSharpness")

    def __call__(self, img):
        return AdjustSharpness(self.degree)(img) if rng().random() < self.prob else img


class _RandomlyApplied(RandomTransform):
    def __init__(self, prob=0.5):
        self.prob = check_prob(prob, type(self).__name__)

    def __call__(self, img):
        return self._op(img) if rng().random() < self.prob else img


class RandomAutoContrast(_RandomlyApplied):
    def __init__(self, cutoff=0.0, ignore=None, prob=0.5):
        super().__init__(prob)
        self._op = AutoContrast(cutoff, ignore)


class RandomEqualize(_RandomlyApplied):
    _op = Equalize()


class RandomInvert(_RandomlyApplied):
    _op = Invert()


class RandomPosterize(RandomTransform):
    """``Posterize`` with bits drawn from ``bits`` (an int or (min, max), in [1, 8])."""

    def __init__(self, bits=(8, 8)):
        lo, hi = (bits, bits) if isinstance(bits, numbers.Integral) else bits
        if not 1 <= lo <= hi <= 8:
            raise DataError("bad bits", op="RandomPosterize", expected="1 <= min <= max <= 8",
                            got=bits)
        self.bits = (int(lo), int(hi))

    def __call__(self, img):
        return Posterize(int(rng().integers(self.bits[0], self.bits[1] + 1)))(img)


class RandomSolarize(RandomTransform):
    """``Solarize`` over a range [a, b] with a <= b drawn from ``threshold`` (min, max)."""

    def __init__(self, threshold=(0, 255)):
        self.threshold = pair(threshold, "RandomSolarize", "threshold", low=0.0)

    def __call__(self, img):
        g = rng()
        lo, hi = sorted(int(g.integers(self.threshold[0], self.threshold[1] + 1))
                        for _ in range(2))
        return Solarize((lo, hi))(img)


class RandomLighting(RandomTransform):
    """AlexNet's PCA lighting noise: add ``eigvec @ (alpha_i * eigval)`` with alpha drawn
    from N(0, ``alpha``) (ImageNet's RGB eigen decomposition)."""
    _EIGVAL = np.array([55.46, 4.794, 1.148])
    _EIGVEC = np.array([[-0.5836, -0.6948, 0.4203], [-0.5808, -0.0045, -0.8140],
                        [-0.5675, 0.7192, 0.4009]])

    def __init__(self, alpha=0.05):
        if alpha < 0:
            raise DataError("bad alpha", op="RandomLighting", expected=">= 0", got=alpha)
        self.alpha = float(alpha)

    def __call__(self, img):
        a = as_array(img, "RandomLighting", ndim=(3,))
        alphas = rng().normal(0.0, self.alpha, 3)
        shift = self._EIGVEC @ (alphas * self._EIGVAL)
        out = a.astype(np.float32) + shift.astype(np.float32)
        if a.dtype == np.uint8:
            out = np.clip(np.rint(out), 0, 255).astype(np.uint8)
        return restore(out, img)
