"""Basic blocks, containers, linear, dropout and tool cells of ``ms.nn``."""
from __future__ import annotations

import math

import sporeling.expression as sx
from sporeling.core.errors import ShapeError
from sporeling.expression.nn import (CellDict, CellList, Dense, Dropout, Flatten, LossBase,
                                     SequentialCell)
from sporeling.expression.nn.init import Uniform, initializer

from .cell import Cell

ops = sx.ops

__all__ = ["Cell", "CellDict", "CellList", "SequentialCell", "LossBase", "Dense", "BiDense",
           "Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "Flatten", "Identity",
           "Unflatten", "ChannelShuffle"]


def _param(init, shape, name, dtype):
    return sx.Parameter(initializer(init, shape, dtype or "float32"), name=name)


class BiDense(Cell):
    """``y = x1^T A x2 + b``: ``BiDense(in1_channels, in2_channels, out_channels,
    weight_init=None, bias_init=None, has_bias=True, dtype=ms.float32)``; weight
    (out, in1, in2), default init U(-1/sqrt(in1), 1/sqrt(in1))."""

    def __init__(self, in1_channels, in2_channels, out_channels, weight_init=None,
                 bias_init=None, has_bias=True, dtype=None):
        super().__init__()
        self.in1_channels, self.in2_channels = int(in1_channels), int(in2_channels)
        self.out_channels, self.has_bias = int(out_channels), bool(has_bias)
        bound = 1.0 / math.sqrt(self.in1_channels)
        self.weight = _param(weight_init if weight_init is not None else Uniform(bound),
                             (self.out_channels, self.in1_channels, self.in2_channels),
                             "weight", dtype)
        self.bias = (_param(bias_init if bias_init is not None else Uniform(bound),
                            (self.out_channels,), "bias", dtype) if self.has_bias else None)

    def construct(self, input1, input2):
        for x, size, label in ((input1, self.in1_channels, "input1"),
                               (input2, self.in2_channels, "input2")):
            if x.shape[-1] != size:
                raise ShapeError(f"wrong {label} size", op="BiDense",
                                 expected=f"last dimension {size}", got=tuple(x.shape))
        y = self._bilinear(input1, input2)
        return ops.add(y, self.bias) if self.bias is not None else y

    def _bilinear(self, x1, x2):
        lead = tuple(x1.shape[:-1])
        a = ops.reshape(x1, (-1, self.in1_channels))
        b = ops.reshape(x2, (-1, self.in2_channels))
        y = ops.einsum("ni,oij,nj->no", a, self.weight, b)
        return ops.reshape(y, lead + (self.out_channels,))


class _ChannelDropout(Cell):
    """Zero whole channels with probability ``p`` while training (scale 1/(1-p))."""
    _ndim = 4

    def __init__(self, p: float = 0.5):
        super().__init__()
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"{type(self).__name__}: p must be in [0, 1], got {p}")
        self.p = float(p)

    def construct(self, x):
        if not self.training or self.p == 0.0:
            return x
        if self.p == 1.0:
            return ops.mul(x, 0.0)
        spatial = self._ndim - 2  # one draw per channel: spatial axes broadcast
        shape = tuple(x.shape[:-spatial]) + (1,) * spatial
        keep = ops.cast(ops.greater_equal(ops.uniform(shape), self.p), x.dtype)
        return ops.mul(x, ops.mul(keep, 1.0 / (1.0 - self.p)))


class Dropout1d(_ChannelDropout):
    """Channel dropout over (N, C, L) or (C, L)."""
    _ndim = 3


class Dropout2d(_ChannelDropout):
    """Channel dropout over (N, C, H, W) or (C, H, W)."""
    _ndim = 4


class Dropout3d(_ChannelDropout):
    """Channel dropout over (N, C, D, H, W) or (C, D, H, W)."""
    _ndim = 5


class Identity(Cell):
    """Returns its input."""

    def construct(self, x):
        return x


class Unflatten(Cell):
    """Expand axis ``axis`` into ``unflattened_size``."""

    def __init__(self, axis: int, unflattened_size):
        super().__init__()
        self.axis, self.unflattened_size = int(axis), tuple(int(s) for s in unflattened_size)

    def construct(self, x):
        shape = tuple(x.shape)
        axis = self.axis % len(shape)
        return ops.reshape(x, shape[:axis] + self.unflattened_size + shape[axis + 1:])


class ChannelShuffle(Cell):
    """ShuffleNet's channel shuffle: (N, C, ...) with C split in ``groups`` and transposed."""

    def __init__(self, groups: int):
        super().__init__()
        if int(groups) < 1:
            raise ValueError(f"ChannelShuffle: groups must be >= 1, got {groups}")
        self.groups = int(groups)

    def construct(self, x):
        shape = tuple(x.shape)
        if len(shape) < 3:
            raise ShapeError("wrong input rank", op="ChannelShuffle",
                             expected="(N, C, *spatial) with at least 3 axes", got=shape)
        if shape[1] % self.groups:
            raise ShapeError("channels not divisible by groups", op="ChannelShuffle",
                             expected=f"(N, C, ...) with C % {self.groups} == 0", got=shape)
        n, c, rest = shape[0], shape[1], shape[2:]
        y = ops.reshape(x, (n, self.groups, c // self.groups) + rest)
        y = ops.transpose(y, (0, 2, 1) + tuple(range(3, 3 + len(rest))))
        return ops.reshape(y, shape)
