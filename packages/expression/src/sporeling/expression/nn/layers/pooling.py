"""Pooling layers over NCHW: ``MaxPool2d``, ``AvgPool2d``, ``AdaptiveAvgPool2d``.

MindSpore's defaults, which differ from PyTorch's: ``kernel_size=1`` and ``stride=1``
(PyTorch's stride defaults to the kernel), and a ``pad_mode`` of ``"valid"`` (no padding),
``"same"`` (output ``ceil(H / stride)``; padding never wins a max and, as in TensorFlow, is
not counted in an average) or ``"pad"`` (``padding`` on each side).

    >>> import numpy as np
    >>> from sporeling.expression import nn
    >>> nn.MaxPool2d(2, 2)(np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4))[0, 0]
    array([[ 5.,  7.],
           [13., 15.]], dtype=float32)
"""
from __future__ import annotations

import numpy as np

from sporeling.compiler import ops
from sporeling.core import SporelingError

from ..cell import Cell
from ._check import check_ndim
from .conv import _ints, _same

__all__ = ["MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d"]


class _Pool2d(Cell):
    def __init__(self, kernel_size, stride, pad_mode, padding, ceil_mode, dilation=1):
        super().__init__()
        name = type(self).__name__
        self.kernel_size = _ints("kernel_size", kernel_size, 2, name)
        self.stride = _ints("stride", stride, 2, name)
        self.dilation = _ints("dilation", dilation, 2, name)
        if pad_mode.lower() not in ("same", "valid", "pad"):
            raise SporelingError("bad pad_mode", op=name, expected='"same", "valid" or "pad"',
                                 got=repr(pad_mode))
        self.pad_mode, self.padding, self.ceil_mode = pad_mode.lower(), padding, bool(ceil_mode)
        self._pad = _ints("padding", padding, 2, name, 0)
        if self.pad_mode != "pad" and any(self._pad):
            raise SporelingError("padding needs pad_mode='pad'", op=name, expected="padding=0",
                                 got=f"padding={padding!r} with pad_mode={pad_mode!r}")

    def _pads(self, spatial):
        """``((top, bottom), (left, right))`` and which of it is explicit padding."""
        out = []
        for n, k, s, d, p in zip(spatial, self.kernel_size, self.stride, self.dilation,
                                 self._pad):
            span = d * (k - 1) + 1
            if self.pad_mode == "same":
                out.append(_same(n, k, s, d))
                continue
            before = after = p
            if self.ceil_mode:  # one more window if it starts inside the input or padding
                count = -(-(n + 2 * p - span) // s) + 1
                if (count - 1) * s >= n + p:
                    count -= 1
                after = max(p, (count - 1) * s + span - n - p)
            out.append((before, after))
        return tuple(out)

    def _simple(self, pads) -> bool:
        return all(a == b <= k // 2 for (a, b), k in zip(pads, self.kernel_size))

    def construct(self, x):
        check_ndim(self, x, (4,), "(N, C, H, W)")
        return self._pool(x, self._pads(tuple(x.shape[2:])))

    def extend_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, "
                f"pad_mode={self.pad_mode}, padding={self.padding}")


class MaxPool2d(_Pool2d):
    """Maximum over windows of (N, C, H, W); the gradient goes to each window's maximum."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1,
                 ceil_mode=False, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, padding, ceil_mode, dilation)

    def _pool(self, x, pads):
        if self._simple(pads):
            return ops.max_pool2d(x, self.kernel_size, self.stride,
                                  tuple(a for a, _ in pads), self.dilation)
        x = ops.pad(x, ((0, 0), (0, 0)) + pads, value=-np.inf)
        return ops.max_pool2d(x, self.kernel_size, self.stride, 0, self.dilation)


class AvgPool2d(_Pool2d):
    """Mean over windows of (N, C, H, W). With ``pad_mode="pad"``, ``count_include_pad``
    counts the explicit padding in the divisor; ``divisor_override`` replaces the divisor."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, padding, ceil_mode)
        self.count_include_pad = bool(count_include_pad)
        self.divisor_override = divisor_override
        self._scales = {}

    def _scale(self, spatial, pads) -> np.ndarray:
        """Per output position: ``kernel area / divisor`` (cached per input size)."""
        key = (spatial, pads)
        scale = self._scales.get(key)
        if scale is None:
            counted = np.ones(spatial)
            if self.pad_mode == "pad" and self.count_include_pad:
                counted = np.pad(counted, [(p, p) for p in self._pad], constant_values=1)
                pads = tuple((a - p, b - p) for (a, b), p in zip(pads, self._pad))
            counted = np.pad(counted, pads)
            windows = np.lib.stride_tricks.sliding_window_view(counted, self.kernel_size)
            counts = windows[::self.stride[0], ::self.stride[1]].sum(axis=(-2, -1))
            if self.divisor_override:
                counts = np.full_like(counts, float(self.divisor_override))
            scale = self._scales[key] = (np.prod(self.kernel_size) / counts)
        return scale

    def _pool(self, x, pads):
        plain = self.pad_mode != "same" and not self.ceil_mode
        if self._simple(pads) and plain and not self.divisor_override:
            return ops.avg_pool2d(x, self.kernel_size, self.stride,
                                  tuple(a for a, _ in pads), self.count_include_pad)
        scale = self._scale(tuple(x.shape[2:]), pads)
        y = ops.avg_pool2d(ops.pad(x, ((0, 0), (0, 0)) + pads), self.kernel_size, self.stride)
        return ops.mul(y, scale.astype(x.dtype))


class AdaptiveAvgPool2d(Cell):
    """Average pooling to ``output_size`` (an int, or a pair where None keeps that size)."""

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def construct(self, x):
        check_ndim(self, x, (3, 4), "(N, C, H, W) or (C, H, W)")
        if len(x.shape) == 3:
            return ops.squeeze(ops.adaptive_avg_pool2d(ops.expand_dims(x, 0),
                                                       self.output_size), 0)
        return ops.adaptive_avg_pool2d(x, self.output_size)

    def extend_repr(self) -> str:
        return f"output_size={self.output_size}"
