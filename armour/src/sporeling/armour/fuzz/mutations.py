"""Bounded image mutations for fuzzing: affine, noise, blur, contrast.

Each mutation draws its parameters from a bounded range (``max_*``) and maps one image
``(H, W)`` to another; the fuzzer then clips the mutant into the pixel ``bounds`` and into the
L∞ ball of radius ``max_linf`` around the seed it descends from, so no chain of mutations
wanders further than that from real data.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import ndimage

from .errors import FuzzError

__all__ = ["Affine", "Noise", "Blur", "Contrast", "default_mutations"]


def _check_nonneg(op, **values):
    for name, v in values.items():
        if not np.isfinite(v) or v < 0:
            raise FuzzError(f"bad {name}", op=op, expected=f"{name} >= 0 (finite)", got=v)


@dataclass(frozen=True)
class Affine:
    """Rotation by up to ``max_degrees``, scaling by ``1 ± max_scale`` and a shift of up to
    ``max_shift`` pixels per axis, about the image centre (bilinear, zero padding)."""
    max_degrees: float = 10.0
    max_scale: float = 0.1
    max_shift: float = 1.0
    name: str = "affine"

    def __post_init__(self):
        _check_nonneg("Affine", max_degrees=self.max_degrees, max_scale=self.max_scale,
                      max_shift=self.max_shift)
        if self.max_scale >= 1:
            raise FuzzError("bad max_scale", op="Affine", expected="0 <= max_scale < 1",
                            got=self.max_scale)

    def __call__(self, img, rng):
        theta = np.deg2rad(rng.uniform(-self.max_degrees, self.max_degrees))
        s = rng.uniform(1 - self.max_scale, 1 + self.max_scale)
        shift = rng.uniform(-self.max_shift, self.max_shift, 2)
        inv = np.array([[np.cos(theta), np.sin(theta)], [-np.sin(theta), np.cos(theta)]]) / s
        centre = (np.array(img.shape) - 1) / 2
        offset = centre - inv @ (centre + shift)
        return ndimage.affine_transform(img, inv, offset=offset, order=1, mode="constant")


@dataclass(frozen=True)
class Noise:
    """Uniform noise in ``[-max_eps, max_eps]`` per pixel."""
    max_eps: float = 0.1
    name: str = "noise"

    def __post_init__(self):
        _check_nonneg("Noise", max_eps=self.max_eps)

    def __call__(self, img, rng):
        return img + rng.uniform(-self.max_eps, self.max_eps, img.shape)


@dataclass(frozen=True)
class Blur:
    """Gaussian blur with a standard deviation up to ``max_sigma`` pixels."""
    max_sigma: float = 0.8
    name: str = "blur"

    def __post_init__(self):
        _check_nonneg("Blur", max_sigma=self.max_sigma)

    def __call__(self, img, rng):
        return ndimage.gaussian_filter(img, rng.uniform(0, self.max_sigma), mode="constant")


@dataclass(frozen=True)
class Contrast:
    """``(x - mean) * a + mean + b`` with ``a`` in ``1 ± max_contrast`` and ``b`` in
    ``± max_brightness``."""
    max_contrast: float = 0.3
    max_brightness: float = 0.1
    name: str = "contrast"

    def __post_init__(self):
        _check_nonneg("Contrast", max_contrast=self.max_contrast,
                      max_brightness=self.max_brightness)

    def __call__(self, img, rng):
        a = rng.uniform(1 - self.max_contrast, 1 + self.max_contrast)
        b = rng.uniform(-self.max_brightness, self.max_brightness)
        m = img.mean()
        return (img - m) * a + m + b


def default_mutations():
    """One of each kind at its default bounds."""
    return [Affine(), Noise(), Blur(), Contrast()]
