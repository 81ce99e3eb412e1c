"""Padding cells of ``ms.nn``. ``padding`` follows MindSpore/PyTorch: an int (every side)
or a tuple from the last axis backwards, (left, right[, top, bottom[, front, back]])."""
from __future__ import annotations

import sporeling.expression as sx
from sporeling.core.errors import ShapeError

from .cell import Cell
from ._windows import pad_spatial

ops = sx.ops

__all__ = ["Pad", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ReflectionPad1d",
           "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
           "ReplicationPad3d", "ZeroPad2d"]


class Pad(Cell):
    """``Pad(paddings, mode="CONSTANT")``: ``paddings`` ((before, after), ...) for every
    axis (NumPy order); mode ``"CONSTANT"``, ``"REFLECT"`` or ``"SYMMETRIC"``."""

    def __init__(self, paddings, mode="CONSTANT"):
        super().__init__()
        mode = mode.upper()
        if mode not in ("CONSTANT", "REFLECT", "SYMMETRIC"):
            raise ValueError(f"Pad: mode must be 'CONSTANT', 'REFLECT' or 'SYMMETRIC', got "
                             f"{mode!r}")
        self.paddings = tuple((int(a), int(b)) for a, b in paddings)
        self.mode = mode

    def construct(self, x):
        if len(self.paddings) != len(x.shape):
            raise ShapeError("paddings do not match the input rank", op="Pad",
                             expected=f"{len(x.shape)} (before, after) pairs",
                             got=len(self.paddings))
        if self.mode == "CONSTANT":
            return ops.pad(x, self.paddings)
        if self.mode == "REFLECT":
            return ops.pad(x, self.paddings, mode="reflect")
        # SYMMETRIC: mirror including the edge -> reflect a tensor with the edge repeated
        for axis, (before, after) in enumerate(self.paddings):
            if before or after:
                x = _symmetric(x, axis, before, after)
        return x


def _symmetric(x, axis, before, after):
    """Mirror ``before``/``after`` elements including the edge (NumPy's 'symmetric')."""
    size = x.shape[axis]
    parts = []
    if before:
        parts.append(ops.flip(_range(x, axis, 0, before), axis))
    parts.append(x)
    if after:
        parts.append(ops.flip(_range(x, axis, size - after, size), axis))
    return ops.concat(parts, axis)


def _range(x, axis, start, stop):
    key = [slice(None)] * len(x.shape)
    key[axis] = slice(start, stop)
    return ops.getitem(x, tuple(key))


def _pairs(padding, n: int, owner: str):
    """(left, right, top, bottom, ...) from the last axis -> ((before, after), ...) in axis
    order for the last n axes."""
    if isinstance(padding, int):
        padding = (padding,) * (2 * n)
    padding = tuple(int(p) for p in padding)
    if len(padding) != 2 * n:
        raise ValueError(f"{owner}: padding must be an int or {2 * n} ints, got {padding}")
    pairs = [(padding[2 * i], padding[2 * i + 1]) for i in range(n)]
    return tuple(reversed(pairs))


class _PadNd(Cell):
    _n, _mode = 1, "constant"

    def __init__(self, padding, value=0.0):
        super().__init__()
        self.padding = _pairs(padding, self._n, type(self).__name__)
        self.value = float(value)

    def construct(self, x):
        if len(x.shape) < self._n + 1:
            raise ShapeError("input rank too small", op=type(self).__name__,
                             expected=f"at least {self._n + 1} axes", got=tuple(x.shape))
        if self._mode == "reflect":
            for (before, after), size in zip(self.padding, x.shape[-self._n:]):
                if before >= size or after >= size:
                    raise ShapeError("reflection padding must be smaller than the axis",
                                     op=type(self).__name__,
                                     expected=f"padding < {size}", got=(before, after))
        return pad_spatial(x, self.padding, value=self.value, mode=self._mode)


class ConstantPad1d(_PadNd):
    """Pad the last axis with ``value``."""
    _n = 1


class ConstantPad2d(_PadNd):
    """Pad the last two axes with ``value``."""
    _n = 2


class ConstantPad3d(_PadNd):
    """Pad the last three axes with ``value``."""
    _n = 3


class ZeroPad2d(_PadNd):
    """Pad the last two axes with zeros."""
    _n = 2

    def __init__(self, padding):
        super().__init__(padding, 0.0)


class _ReflectNd(_PadNd):
    _mode = "reflect"

    def __init__(self, padding):
        super().__init__(padding, 0.0)


class ReflectionPad1d(_ReflectNd):
    """Mirror the last axis (edge excluded)."""
    _n = 1


class ReflectionPad2d(_ReflectNd):
    """Mirror the last two axes (edge excluded)."""
    _n = 2


class ReflectionPad3d(_ReflectNd):
    """Mirror the last three axes (edge excluded)."""
    _n = 3


class _ReplicateNd(_PadNd):
    _mode = "replicate"

    def __init__(self, padding):
        super().__init__(padding, 0.0)


class ReplicationPad1d(_ReplicateNd):
    """Repeat the edge of the last axis."""
    _n = 1


class ReplicationPad2d(_ReplicateNd):
    """Repeat the edges of the last two axes."""
    _n = 2


class ReplicationPad3d(_ReplicateNd):
    """Repeat the edges of the last three axes."""
    _n = 3
