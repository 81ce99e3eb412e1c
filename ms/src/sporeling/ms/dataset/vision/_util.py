"""Shared checks and conversions of the vision transforms: images are HWC NumPy arrays
(uint8 or float) or PIL images; a transform given a PIL image returns one."""
from __future__ import annotations

import numpy as np

from sporeling.data import DataError, sample_rng

__all__ = ["as_array", "restore", "to_pil", "from_pil", "check_prob", "pair", "rng",
           "Transform", "RandomTransform"]


def is_pil(img) -> bool:
    from PIL import Image
    return isinstance(img, Image.Image)


def as_array(img, op: str, ndim=(2, 3)) -> np.ndarray:
    img = np.asarray(img) if not is_pil(img) else np.asarray(img)
    if img.ndim not in ndim:
        raise DataError("not an image", op=op, expected=f"an array of rank {ndim}",
                        got=img.shape)
    return img


def to_pil(img: np.ndarray):
    from PIL import Image
    if is_pil(img):
        return img
    img = np.asarray(img)
    if img.ndim == 3 and img.shape[2] == 1:
        img = img[..., 0]
    if img.dtype != np.uint8:
        img = np.clip(np.rint(img), 0, 255).astype(np.uint8)
    return Image.fromarray(img)


def from_pil(pil, like: np.ndarray) -> np.ndarray:
    out = np.asarray(pil)
    if like.ndim == 3 and out.ndim == 2:
        out = out[..., None]
    return out.astype(like.dtype, copy=False)


def restore(out: np.ndarray, original):
    """``out`` as the caller gave the image: a PIL image for a PIL input."""
    return to_pil(out) if is_pil(original) else out


def check_prob(prob, op: str) -> float:
    if not 0.0 <= float(prob) <= 1.0:
        raise DataError("bad prob", op=op, expected="a float in [0, 1]", got=prob)
    return float(prob)


def pair(value, op: str, what: str, low=None) -> tuple[float, float]:
    """A (min, max) range from a number d ([low-ish, d] conventions are the caller's) or a
    sequence of two."""
    if isinstance(value, (int, float)):
        return (float(value), float(value))
    value = tuple(float(v) for v in value)
    if len(value) != 2 or value[0] > value[1] or (low is not None and value[0] < low):
        raise DataError(f"bad {what}", op=op, expected="(min, max) with min <= max",
                        got=value)
    return value


def rng() -> np.random.Generator:
    return sample_rng()


class Transform:
    """Base of the facade's transforms: callable on one image (or several columns)."""
    random = False

    def __repr__(self):
        return f"{type(self).__name__}()"


class RandomTransform(Transform):
    random = True
