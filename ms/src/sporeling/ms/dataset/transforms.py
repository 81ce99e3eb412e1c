"""``ms.dataset.transforms``: general transforms under MindSpore 2.x's names."""
from __future__ import annotations

import numpy as np

from sporeling.data.transforms import Compose, RandomApply, RandomChoice
from sporeling.data.transforms.vision import ToType

from ..common.dtype import to_numpy

__all__ = ["Compose", "RandomApply", "RandomChoice", "TypeCast", "OneHot", "Fill",
           "Duplicate", "Concatenate"]


class TypeCast(ToType):
    """Cast a column to ``data_type`` (``transforms.TypeCast(ms.int32)``)."""

    def __init__(self, data_type):
        super().__init__(to_numpy(data_type))


class OneHot:
    """Integer labels to one-hot rows of ``num_classes`` (``smoothing_rate`` spreads mass)."""

    def __init__(self, num_classes: int, smoothing_rate: float = 0.0):
        self.num_classes, self.smoothing_rate = int(num_classes), float(smoothing_rate)

    def __call__(self, label):
        label = np.asarray(label)
        out = np.eye(self.num_classes, dtype=np.float32)[label]
        if self.smoothing_rate:
            out = out * (1.0 - self.smoothing_rate) + self.smoothing_rate / self.num_classes
        return out.astype(label.dtype if not self.smoothing_rate else np.float32)


class Fill:
    """Every element set to ``fill_value`` (shape and dtype kept)."""

    def __init__(self, fill_value):
        self.fill_value = fill_value

    def __call__(self, data):
        data = np.asarray(data)
        return np.full_like(data, self.fill_value)


class Duplicate:
    """One column in, the same data twice out."""

    def __call__(self, data):
        data = np.asarray(data)
        return data, data.copy()


class Concatenate:
    """Concatenate along ``axis`` with optional ``prepend``/``append`` arrays."""

    def __init__(self, axis: int = 0, prepend=None, append=None):
        self.axis, self.prepend, self.append = axis, prepend, append

    def __call__(self, data):
        parts = [p for p in (self.prepend, np.asarray(data), self.append) if p is not None]
        return np.concatenate([np.asarray(p) for p in parts], self.axis)
