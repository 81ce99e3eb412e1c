"""Convolution cells of ``ms.nn``. ``Conv1d``, ``Conv2d``, ``Conv2dTranspose`` are
sporeling.expression's (MindSpore signatures already); the 3-d and 1-d transposed ones and
``Unfold`` are built from sx slices and ``einsum`` (see ``_windows``).

MindSpore's conventions: ``pad_mode`` is ``"same"`` (TensorFlow's, output ceil(size /
stride)), ``"valid"`` or ``"pad"`` (explicit ``padding``); ``has_bias`` defaults to False;
the transposed convolutions' weight is (in_channels, out_channels / group, *kernel).
"""
from __future__ import annotations

import math

import sporeling.expression as sx
from sporeling.expression.nn import Conv1d, Conv2d, Conv2dTranspose
from sporeling.expression.nn.init import HeUniform, Uniform, compute_fans, initializer

from .cell import Cell
from ._windows import (check_ndim, conv_nd, conv_transpose_nd, ntuple, pad_spatial, patches,
                       same_pads)

ops = sx.ops

__all__ = ["Conv1d", "Conv2d", "Conv3d", "Conv1dTranspose", "Conv2dTranspose",
           "Conv3dTranspose", "Unfold"]


def _explicit_pads(padding, n: int, owner: str):
    """MindSpore's ``padding``: an int (all sides) or 2n ints (before, after per axis)."""
    if isinstance(padding, int):
        return ((padding, padding),) * n
    padding = tuple(int(p) for p in padding)
    if len(padding) != 2 * n:
        raise ValueError(f"{owner}: padding must be an int or {2 * n} ints, got {padding}")
    return tuple((padding[2 * i], padding[2 * i + 1]) for i in range(n))


class _ConvNd(Cell):
    _n = 3
    _layout = "(N, C, D, H, W)"
    _transposed = False

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, dtype=None, output_padding=0):
        super().__init__()
        name, n = type(self).__name__, self._n
        if pad_mode not in ("same", "valid", "pad"):
            raise ValueError(f"{name}: pad_mode must be 'same', 'valid' or 'pad', got "
                             f"{pad_mode!r}")
        if pad_mode != "pad" and padding not in (0, (0,) * (2 * n)):
            raise ValueError(f"{name}: padding must be 0 unless pad_mode='pad', got {padding}")
        if in_channels % group or out_channels % group:
            raise ValueError(f"{name}: in_channels {in_channels} and out_channels "
                             f"{out_channels} must be divisible by group {group}")
        self.in_channels, self.out_channels, self.group = in_channels, out_channels, group
        self.kernel_size = ntuple(kernel_size, n, "kernel_size", name)
        self.stride = ntuple(stride, n, "stride", name)
        self.dilation = ntuple(dilation, n, "dilation", name)
        self.pad_mode, self.padding = pad_mode, _explicit_pads(padding, n, name)
        self.output_padding = ntuple(output_padding, n, "output_padding", name)
        self.has_bias = bool(has_bias)
        shape = ((in_channels, out_channels // group) if self._transposed else
                 (out_channels, in_channels // group)) + self.kernel_size
        w_init = HeUniform(math.sqrt(5)) if weight_init is None else weight_init
        self.weight = sx.Parameter(initializer(w_init, shape, dtype or "float32"),
                                   name="weight")
        if self.has_bias:
            fan_in, _ = compute_fans(shape)
            b_init = Uniform(1 / math.sqrt(fan_in)) if bias_init is None else bias_init
            self.bias = sx.Parameter(initializer(b_init, (out_channels,), dtype or "float32"),
                                     name="bias")
        else:
            self.bias = None

    def _pads(self, sizes):
        if self.pad_mode == "pad":
            return self.padding
        if self.pad_mode == "valid":
            return ((0, 0),) * self._n
        return same_pads(sizes, self.kernel_size, self.stride, self.dilation)

    def construct(self, x):
        check_ndim(x, self._n + 2, type(self).__name__, self._layout)
        return conv_nd(x, self.weight, self.bias, self.stride, self.dilation,
                       self._pads(tuple(x.shape[2:])), self.group)


class Conv3d(_ConvNd):
    """3-d convolution over (N, C, D, H, W); ``padding`` an int or 6 ints (head, tail, top,
    bottom, left, right) with ``pad_mode="pad"``."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, data_format="NCDHW", dtype=None):
        if data_format != "NCDHW":
            raise ValueError(f"Conv3d: data_format must be 'NCDHW', got {data_format!r}")
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                         dilation, group, has_bias, weight_init, bias_init, dtype)


class _ConvTransposeNd(_ConvNd):
    _transposed = True

    def _crops(self, sizes):
        """What to cut off the full transposed output per axis."""
        if self.pad_mode == "pad":
            return self.padding
        if self.pad_mode == "valid":
            return ((0, 0),) * self._n
        crops = []  # 'same': output size * stride
        for k, s, d in zip(self.kernel_size, self.stride, self.dilation):
            total = max(0, d * (k - 1) + 1 - s)
            crops.append((total // 2, total - total // 2))
        return tuple(crops)

    def construct(self, x):
        check_ndim(x, self._n + 2, type(self).__name__, self._layout)
        return conv_transpose_nd(x, self.weight, self.bias, self.stride, self.dilation,
                                 self._crops(tuple(x.shape[2:])), self.group,
                                 self.output_padding)


class Conv1dTranspose(_ConvTransposeNd):
    """Transposed 1-d convolution over (N, C, L)."""
    _n, _layout = 1, "(N, C, L)"

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                         dilation, group, has_bias, weight_init, bias_init, dtype)


class Conv3dTranspose(_ConvTransposeNd):
    """Transposed 3-d convolution over (N, C, D, H, W)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, output_padding=0, has_bias=False,
                 weight_init=None, bias_init=None, data_format="NCDHW", dtype=None):
        if data_format != "NCDHW":
            raise ValueError(f"Conv3dTranspose: data_format must be 'NCDHW', got "
                             f"{data_format!r}")
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                         dilation, group, has_bias, weight_init, bias_init, dtype,
                         output_padding)


class Unfold(Cell):
    """Image patches (MindSpore's ``nn.Unfold``, TensorFlow's ``extract_image_patches``):
    (N, C, H, W) -> (N, C * kh * kw, out_h, out_w); the depth index runs over (kh, kw, C)
    with C fastest. ``ksizes``/``strides``/``rates`` are ``[1, h, w, 1]``; ``padding``
    ``"valid"`` or ``"same"``."""

    def __init__(self, ksizes, strides, rates, padding="valid"):
        super().__init__()
        for label, v in (("ksizes", ksizes), ("strides", strides), ("rates", rates)):
            if len(v) != 4 or v[0] != 1 or v[3] != 1:
                raise ValueError(f"Unfold: {label} must be [1, h, w, 1], got {list(v)}")
        if padding.lower() not in ("valid", "same"):
            raise ValueError(f"Unfold: padding must be 'valid' or 'same', got {padding!r}")
        self.kernel = (int(ksizes[1]), int(ksizes[2]))
        self.stride = (int(strides[1]), int(strides[2]))
        self.rate = (int(rates[1]), int(rates[2]))
        self.padding = padding.lower()

    def construct(self, x):
        check_ndim(x, 4, "Unfold", "(N, C, H, W)")
        if self.padding == "same":
            x = pad_spatial(x, same_pads(tuple(x.shape[2:]), self.kernel, self.stride,
                                         self.rate))
        p = patches(x, self.kernel, self.stride, self.rate)   # (N, C, K, oh, ow)
        n, c, k, oh, ow = p.shape
        return ops.reshape(ops.transpose(p, (0, 2, 1, 3, 4)), (n, k * c, oh, ow))
