"""Policy augmentations (MindSpore 2.10's names): AutoAugment, RandAugment,
TrivialAugmentWide (torchvision's operation spaces, which MindSpore follows),
UniformAugment and RandomSelectSubpolicy."""
from __future__ import annotations

import numpy as np

from sporeling.data import DataError

from ._enums import AutoAugmentPolicy, Inter
from ._util import RandomTransform, as_array, restore, rng
from .color import AutoContrast, Equalize, Invert, Posterize, Solarize, enhance
from .geometry import warp_affine

__all__ = ["AutoAugment", "RandAugment", "TrivialAugmentWide", "UniformAugment",
           "RandomSelectSubpolicy", "apply_op"]


def apply_op(a, name, magnitude, interpolation, fill_value):
    """One named operation of the augmentation spaces on uint8 HWC ``a``."""
    if name == "ShearX":
        return warp_affine(a, 0.0, (0, 0), 1.0, (float(np.degrees(np.arctan(magnitude))), 0.0),
                           interpolation, fill_value)
    if name == "ShearY":
        return warp_affine(a, 0.0, (0, 0), 1.0, (0.0, float(np.degrees(np.arctan(magnitude)))),
                           interpolation, fill_value)
    if name == "TranslateX":
        return warp_affine(a, 0.0, (int(magnitude), 0), 1.0, (0.0, 0.0), interpolation,
                           fill_value)
    if name == "TranslateY":
        return warp_affine(a, 0.0, (0, int(magnitude)), 1.0, (0.0, 0.0), interpolation,
                           fill_value)
    if name == "Rotate":
        return warp_affine(a, -magnitude, (0, 0), 1.0, (0.0, 0.0), interpolation, fill_value)
    if name in ("Brightness", "Color", "Contrast", "Sharpness"):
        return enhance(a, name, 1.0 + magnitude, name)
    if name == "Posterize":
        return Posterize(int(magnitude))(a)
    if name == "Solarize":
        return Solarize(float(magnitude))(a)
    if name == "AutoContrast":
        return AutoContrast()(a)
    if name == "Equalize":
        return Equalize()(a)
    if name == "Invert":
        return Invert()(a)
    if name == "Identity":
        return a
    raise DataError("unknown augmentation", op="augment", got=name)


_SIGNED = {"ShearX", "ShearY", "TranslateX", "TranslateY", "Rotate", "Brightness", "Color",
           "Contrast", "Sharpness"}


def _autoaugment_space(bins, h, w):
    return {"ShearX": np.linspace(0.0, 0.3, bins), "ShearY": np.linspace(0.0, 0.3, bins),
            "TranslateX": np.linspace(0.0, 150.0 / 331.0 * w, bins),
            "TranslateY": np.linspace(0.0, 150.0 / 331.0 * h, bins),
            "Rotate": np.linspace(0.0, 30.0, bins), "Brightness": np.linspace(0.0, 0.9, bins),
            "Color": np.linspace(0.0, 0.9, bins), "Contrast": np.linspace(0.0, 0.9, bins),
            "Sharpness": np.linspace(0.0, 0.9, bins),
            "Posterize": 8 - np.round(np.arange(bins) / ((bins - 1) / 4)).astype(int),
            "Solarize": np.linspace(255.0, 0.0, bins), "AutoContrast": np.zeros(bins),
            "Equalize": np.zeros(bins), "Invert": np.zeros(bins)}


_IMAGENET = [(("Posterize", 0.4, 8), ("Rotate", 0.6, 9)),
             (("Solarize", 0.6, 5), ("AutoContrast", 0.6, None)),
             (("Equalize", 0.8, None), ("Equalize", 0.6, None)),
             (("Posterize", 0.6, 7), ("Posterize", 0.6, 6)),
             (("Equalize", 0.4, None), ("Solarize", 0.2, 4)),
             (("Equalize", 0.4, None), ("Rotate", 0.8, 8)),
             (("Solarize", 0.6, 3), ("Equalize", 0.6, None)),
             (("Posterize", 0.8, 5), ("Equalize", 1.0, None)),
             (("Rotate", 0.2, 3), ("Solarize", 0.6, 8)),
             (("Equalize", 0.6, None), ("Posterize", 0.4, 6)),
             (("Rotate", 0.8, 8), ("Color", 0.4, 0)),
             (("Rotate", 0.4, 9), ("Equalize", 0.6, None)),
             (("Equalize", 0.0, None), ("Equalize", 0.8, None)),
             (("Invert", 0.6, None), ("Equalize", 1.0, None)),
             (("Color", 0.6, 4), ("Contrast", 1.0, 8)),
             (("Rotate", 0.8, 8), ("Color", 1.0, 2)),
             (("Color", 0.8, 8), ("Solarize", 0.8, 7)),
             (("Sharpness", 0.4, 7), ("Invert", 0.6, None)),
             (("ShearX", 0.6, 5), ("Equalize", 1.0, None)),
             (("Color", 0.4, 0), ("Equalize", 0.6, None)),
             (("Equalize", 0.4, None), ("Solarize", 0.2, 4)),
             (("Solarize", 0.6, 5), ("AutoContrast", 0.6, None)),
             (("Invert", 0.6, None), ("Equalize", 1.0, None)),
             (("Color", 0.6, 4), ("Contrast", 1.0, 8)),
             (("Equalize", 0.8, None), ("Equalize", 0.6, None))]
_CIFAR10 = [(("Invert", 0.1, None), ("Contrast", 0.2, 6)),
            (("Rotate", 0.7, 2), ("TranslateX", 0.3, 9)),
            (("Sharpness", 0.8, 1), ("Sharpness", 0.9, 3)),
            (("ShearY", 0.5, 8), ("TranslateY", 0.7, 9)),
            (("AutoContrast", 0.5, None), ("Equalize", 0.9, None)),
            (("ShearY", 0.2, 7), ("Posterize", 0.3, 7)),
            (("Color", 0.4, 3), ("Brightness", 0.6, 7)),
            (("Sharpness", 0.3, 9), ("Brightness", 0.7, 9)),
            (("Equalize", 0.6, None), ("Equalize", 0.5, None)),
            (("Contrast", 0.6, 7), ("Sharpness", 0.6, 5)),
            (("Color", 0.7, 7), ("TranslateX", 0.5, 8)),
            (("Equalize", 0.3, None), ("AutoContrast", 0.4, None)),
            (("TranslateY", 0.4, 3), ("Sharpness", 0.2, 6)),
            (("Brightness", 0.9, 6), ("Color", 0.2, 8)),
            (("Solarize", 0.5, 2), ("Invert", 0.0, None)),
            (("Equalize", 0.2, None), ("AutoContrast", 0.6, None)),
            (("Equalize", 0.2, None), ("Equalize", 0.6, None)),
            (("Color", 0.9, 9), ("Equalize", 0.6, None)),
            (("AutoContrast", 0.8, None), ("Solarize", 0.2, 8)),
            (("Brightness", 0.1, 3), ("Color", 0.7, 0)),
            (("Solarize", 0.4, 5), ("AutoContrast", 0.9, None)),
            (("TranslateY", 0.9, 9), ("TranslateY", 0.7, 9)),
            (("AutoContrast", 0.9, None), ("Solarize", 0.8, 3)),
            (("Equalize", 0.8, None), ("Invert", 0.1, None)),
            (("TranslateY", 0.7, 9), ("AutoContrast", 0.9, None))]
_SVHN = [(("ShearX", 0.9, 4), ("Invert", 0.2, None)),
         (("ShearY", 0.9, 8), ("Invert", 0.7, None)),
         (("Equalize", 0.6, None), ("Solarize", 0.6, 6)),
         (("Invert", 0.9, None), ("Equalize", 0.6, None)),
         (("Equalize", 0.6, None), ("Rotate", 0.9, 3)),
         (("ShearX", 0.9, 4), ("AutoContrast", 0.8, None)),
         (("ShearY", 0.9, 8), ("Invert", 0.4, None)),
         (("ShearY", 0.9, 5), ("Solarize", 0.2, 6)),
         (("Invert", 0.9, None), ("AutoContrast", 0.8, None)),
         (("Equalize", 0.6, None), ("Rotate", 0.9, 3)),
         (("ShearX", 0.9, 4), ("Solarize", 0.3, 3)),
         (("ShearY", 0.8, 8), ("Invert", 0.7, None)),
         (("Equalize", 0.9, None), ("TranslateY", 0.6, 6)),
         (("Invert", 0.9, None), ("Equalize", 0.6, None)),
         (("Contrast", 0.3, 3), ("Rotate", 0.8, 4)),
         (("Invert", 0.8, None), ("TranslateY", 0.0, 2)),
         (("ShearY", 0.7, 6), ("Solarize", 0.4, 8)),
         (("Invert", 0.6, None), ("Rotate", 0.8, 4)),
         (("ShearY", 0.3, 7), ("TranslateX", 0.9, 3)),
         (("ShearX", 0.1, 6), ("Invert", 0.6, None)),
         (("Solarize", 0.7, 2), ("TranslateY", 0.6, 7)),
         (("ShearY", 0.8, 4), ("Invert", 0.8, None)),
         (("ShearX", 0.7, 9), ("TranslateY", 0.8, 3)),
         (("ShearY", 0.8, 5), ("AutoContrast", 0.7, None)),
         (("ShearX", 0.7, 2), ("Invert", 0.1, None))]
POLICIES = {AutoAugmentPolicy.IMAGENET: _IMAGENET, AutoAugmentPolicy.CIFAR10: _CIFAR10,
            AutoAugmentPolicy.SVHN: _SVHN}


def _uint8_hwc(img, op):
    a = as_array(img, op, ndim=(3,))
    if a.dtype != np.uint8 or a.shape[2] != 3:
        raise DataError("expects an RGB uint8 image", op=op, expected="(H, W, 3) uint8",
                        got=f"{a.shape} {a.dtype}")
    return a


class AutoAugment(RandomTransform):
    """One sub-policy of ``policy`` drawn per image, each of its two operations applied
    with its probability at its magnitude (signs drawn at random)."""

    def __init__(self, policy=AutoAugmentPolicy.IMAGENET, interpolation=Inter.NEAREST,
                 fill_value=0):
        self.policy, self.interpolation = AutoAugmentPolicy(policy), Inter(interpolation)
        self.fill_value = fill_value

    def __call__(self, img):
        a = _uint8_hwc(img, "AutoAugment")
        g = rng()
        sub = POLICIES[self.policy][int(g.integers(len(POLICIES[self.policy])))]
        space = _autoaugment_space(10, *a.shape[:2])
        for name, prob, level in sub:
            if g.random() <= prob:
                mag = float(space[name][level]) if level is not None else 0.0
                if name in _SIGNED and g.random() < 0.5:
                    mag = -mag
                a = apply_op(a, name, mag, self.interpolation, self.fill_value)
        return restore(a, img)


class RandAugment(RandomTransform):
    """``num_ops`` operations drawn uniformly from the RandAugment space, each at
    ``magnitude`` of ``num_magnitude_bins`` bins."""

    def __init__(self, num_ops=2, magnitude=9, num_magnitude_bins=31,
                 interpolation=Inter.NEAREST, fill_value=0):
        if not 0 <= magnitude < num_magnitude_bins or num_ops < 0 or num_magnitude_bins < 2:
            raise DataError("bad num_ops/magnitude", op="RandAugment",
                            expected="0 <= magnitude < num_magnitude_bins",
                            got=(num_ops, magnitude))
        self.num_ops, self.magnitude = int(num_ops), int(magnitude)
        self.bins = int(num_magnitude_bins)
        self.interpolation, self.fill_value = Inter(interpolation), fill_value

    def _space(self, h, w):
        space = _autoaugment_space(self.bins, h, w)
        del space["Invert"]
        return {"Identity": np.zeros(self.bins), **space}

    def __call__(self, img):
        a = _uint8_hwc(img, type(self).__name__)
        g = rng()
        space = self._space(*a.shape[:2])
        names = list(space)
        for _ in range(self.num_ops):
            name = names[int(g.integers(len(names)))]
            mag = float(space[name][self._level(g)])
            if name in _SIGNED and g.random() < 0.5:
                mag = -mag
            a = apply_op(a, name, mag, self.interpolation, self.fill_value)
        return restore(a, img)

    def _level(self, g):
        return self.magnitude


class TrivialAugmentWide(RandAugment):
    """One operation of the wide space per image, at a random magnitude bin."""

    def __init__(self, num_magnitude_bins=31, interpolation=Inter.NEAREST, fill_value=0):
        super().__init__(1, 0, num_magnitude_bins, interpolation, fill_value)

    def _space(self, h, w):
        b = self.bins
        return {"Identity": np.zeros(b), "ShearX": np.linspace(0.0, 0.99, b),
                "ShearY": np.linspace(0.0, 0.99, b), "TranslateX": np.linspace(0.0, 32.0, b),
                "TranslateY": np.linspace(0.0, 32.0, b), "Rotate": np.linspace(0.0, 135.0, b),
                "Brightness": np.linspace(0.0, 0.99, b), "Color": np.linspace(0.0, 0.99, b),
                "Contrast": np.linspace(0.0, 0.99, b), "Sharpness": np.linspace(0.0, 0.99, b),
                "Posterize": 8 - np.round(np.arange(b) / ((b - 1) / 6)).astype(int),
                "Solarize": np.linspace(255.0, 0.0, b), "AutoContrast": np.zeros(b),
                "Equalize": np.zeros(b)}

    def _level(self, g):
        return int(g.integers(self.bins))


class UniformAugment(RandomTransform):
    """``num_ops`` of ``transforms`` picked without replacement, each applied with
    probability 0.5, in the drawn order."""

    def __init__(self, transforms, num_ops=2):
        self.transforms = list(transforms)
        if not 1 <= num_ops <= len(self.transforms):
            raise DataError("bad num_ops", op="UniformAugment",
                            expected=f"1..{len(self.transforms)}", got=num_ops)
        self.num_ops = int(num_ops)

    def __call__(self, img):
        g = rng()
        for k in g.choice(len(self.transforms), self.num_ops, replace=False):
            if g.random() < 0.5:
                img = self.transforms[int(k)](img)
        return img


class RandomSelectSubpolicy(RandomTransform):
    """One sub-policy (a list of (transform, prob)) drawn per image; each transform of it
    applied with its probability."""

    def __init__(self, policy):
        self.policy = [list(sub) for sub in policy]
        if not self.policy or any(not sub for sub in self.policy):
            raise DataError("bad policy", op="RandomSelectSubpolicy",
                            expected="a non-empty list of non-empty [(op, prob), ...]",
                            got=policy)

    def __call__(self, img):
        g = rng()
        for op, prob in self.policy[int(g.integers(len(self.policy)))]:
            if g.random() < prob:
                img = op(img)
        return img
