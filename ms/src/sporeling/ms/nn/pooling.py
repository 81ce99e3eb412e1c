"""Pooling cells of ``ms.nn`` over 1, 2 and 3 spatial axes.

``AvgPool2d`` and ``AdaptiveAvgPool2d`` are sporeling.expression's; ``MaxPool2d`` binds the
``max_pool2d`` primitive where its windows allow (2-D, symmetric padding of at most half
the kernel, no indices, no ceil mode); the rest are built from sx slices (see ``_windows``)
so they trace into Graph mode and differentiate. Max pools with
``return_indices=True`` return flat indices into each input plane (as MindSpore and PyTorch
do), which the ``MaxUnpool`` cells (``unpooling``) take back.
"""
from __future__ import annotations

import itertools
import math

import numpy as np

import sporeling.expression as sx
from sporeling.expression.nn import AdaptiveAvgPool2d, AvgPool2d

from .cell import Cell
from ._windows import check_ndim, ntuple, pad_spatial, patches, same_pads

ops = sx.ops

__all__ = ["AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d",
           "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d",
           "LPPool1d", "LPPool2d", "MaxPool1d", "MaxPool2d", "MaxPool3d"]

_LAYOUT = {1: "(N, C, L)", 2: "(N, C, H, W)", 3: "(N, C, D, H, W)"}


def _with_batch(x, n_sp, owner):
    """Accept (C, *spatial) too: returns (x with a batch axis, whether one was added)."""
    if len(x.shape) == n_sp + 1:
        return ops.expand_dims(x, 0), True
    check_ndim(x, n_sp + 2, owner, _LAYOUT[n_sp])
    return x, False


def _index_patches(spatial, kernel, stride, dilation, pads, ceil_mode):
    """Static (K, *out) table: each window element's flat index into the unpadded plane
    (-1 in the padding)."""
    idx = np.arange(int(np.prod(spatial)), dtype=np.int64).reshape((1, 1) + tuple(spatial))
    idx = np.pad(idx, ((0, 0), (0, 0)) + tuple(pads), constant_values=-1)
    t = patches(sx.Tensor(idx), kernel, stride, dilation, ceil_mode, fill=-1)
    return t.asnumpy()[0, 0]


class _MaxPoolNd(Cell):
    _n = 1

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1,
                 return_indices=False, ceil_mode=False):
        super().__init__()
        name, n = type(self).__name__, self._n
        if pad_mode not in ("valid", "same", "pad"):
            raise ValueError(f"{name}: pad_mode must be 'valid', 'same' or 'pad', got "
                             f"{pad_mode!r}")
        self.kernel_size = ntuple(kernel_size, n, "kernel_size", name)
        self.stride = ntuple(stride if stride is not None else kernel_size, n, "stride", name)
        self.dilation = ntuple(dilation, n, "dilation", name)
        self.padding = ntuple(padding, n, "padding", name)
        self.pad_mode, self.return_indices = pad_mode, bool(return_indices)
        self.ceil_mode = bool(ceil_mode)

    def _pads(self, spatial):
        if self.pad_mode == "same":
            return same_pads(spatial, self.kernel_size, self.stride, self.dilation)
        if self.pad_mode == "pad":
            return tuple((p, p) for p in self.padding)
        return ((0, 0),) * self._n

    def _primitive_pads(self, pads):
        """The padding ``ops.max_pool2d`` (one primitive, served by oneDNN where installed)
        takes for these windows, or None: 2-D, symmetric, at most half the kernel."""
        if self._n != 2 or self.return_indices or self.ceil_mode:
            return None
        if any(lo != hi or 2 * lo > k for (lo, hi), k in zip(pads, self.kernel_size)):
            return None
        return tuple(lo for lo, _ in pads)

    def construct(self, x):
        x, added = _with_batch(x, self._n, type(self).__name__)
        spatial = tuple(x.shape[2:])
        pads = self._pads(spatial)
        padding = self._primitive_pads(pads)
        if padding is not None:
            out = ops.max_pool2d(x, self.kernel_size, self.stride, padding, self.dilation)
            return ops.squeeze(out, 0) if added else out
        xp = pad_spatial(x, pads, value=-np.inf)
        p = patches(xp, self.kernel_size, self.stride, self.dilation, self.ceil_mode,
                    fill=-np.inf)
        out = ops.max(p, 2)
        if not self.return_indices:
            return ops.squeeze(out, 0) if added else out
        table = _index_patches(spatial, self.kernel_size, self.stride, self.dilation, pads,
                               self.ceil_mode)                          # (K, *out)
        arg = ops.expand_dims(ops.argmax(p, 2), 2)                     # (N, C, 1, *out)
        k = np.arange(table.shape[0]).reshape((1, 1, -1) + (1,) * self._n)
        chosen = ops.cast(ops.equal(arg, k), "int64")
        indices = ops.sum(ops.mul(chosen, table[None, None]), 2)
        if added:
            out, indices = ops.squeeze(out, 0), ops.squeeze(indices, 0)
        return out, indices


class MaxPool1d(_MaxPoolNd):
    """Max pooling over (N, C, L); ``return_indices`` gives flat positions too."""
    _n = 1


class MaxPool2d(_MaxPoolNd):
    """Max pooling over (N, C, H, W) (MindSpore 2.x: ``return_indices``, ``ceil_mode``,
    ``dilation``, ``pad_mode``)."""
    _n = 2

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1,
                 return_indices=False, ceil_mode=False, data_format="NCHW"):
        if data_format != "NCHW":
            raise ValueError(f"MaxPool2d: data_format must be 'NCHW', got {data_format!r}")
        super().__init__(kernel_size, stride, pad_mode, padding, dilation, return_indices,
                         ceil_mode)


class MaxPool3d(_MaxPoolNd):
    """Max pooling over (N, C, D, H, W)."""
    _n = 3


class _AvgPoolNd(Cell):
    _n = 1

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None):
        super().__init__()
        name, n = type(self).__name__, self._n
        self.kernel_size = ntuple(kernel_size, n, "kernel_size", name)
        self.stride = ntuple(stride, n, "stride", name)
        self.padding = ntuple(padding, n, "padding", name)
        if pad_mode not in ("valid", "same", "pad"):
            raise ValueError(f"{name}: pad_mode must be 'valid', 'same' or 'pad', got "
                             f"{pad_mode!r}")
        self.pad_mode, self.ceil_mode = pad_mode, bool(ceil_mode)
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override

    def construct(self, x):
        x, added = _with_batch(x, self._n, type(self).__name__)
        spatial = tuple(x.shape[2:])
        ones = (1,) * self._n
        if self.pad_mode == "same":
            pads = same_pads(spatial, self.kernel_size, self.stride, ones)
        elif self.pad_mode == "pad":
            pads = tuple((p, p) for p in self.padding)
        else:
            pads = ((0, 0),) * self._n
        p = patches(pad_spatial(x, pads), self.kernel_size, self.stride, ones, self.ceil_mode)
        total = ops.sum(p, 2)
        if self.divisor_override:
            out = ops.div(total, float(self.divisor_override))
        elif self.count_include_pad and self.pad_mode == "pad":
            out = ops.div(total, float(np.prod(self.kernel_size)))
        else:  # divide by the real elements in each window
            mask = np.pad(np.ones((1, 1) + spatial, np.float32), ((0, 0), (0, 0)) + pads)
            count = patches(sx.Tensor(mask), self.kernel_size, self.stride, ones,
                            self.ceil_mode).asnumpy().sum(2)
            out = ops.div(total, count.astype(np.float32))
        return ops.squeeze(out, 0) if added else out


class AvgPool1d(_AvgPoolNd):
    """Average pooling over (N, C, L)."""
    _n = 1

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True):
        super().__init__(kernel_size, stride, pad_mode, padding, ceil_mode, count_include_pad)


class AvgPool3d(_AvgPoolNd):
    """Average pooling over (N, C, D, H, W)."""
    _n = 3


def _bounds(size, out):
    return [(math.floor(i * size / out), math.ceil((i + 1) * size / out)) for i in range(out)]


def _take(x, axis, start, stop):
    key = [slice(None)] * len(x.shape)
    key[axis] = slice(start, stop)
    return ops.getitem(x, tuple(key))


class _AdaptiveNd(Cell):
    _n, _reduce = 1, "mean"

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        n = self._n
        if isinstance(output_size, int) or output_size is None:
            output_size = (output_size,) * n
        self.output_size = tuple(output_size)
        if len(self.output_size) != n:
            raise ValueError(f"{type(self).__name__}: output_size must be an int or {n} ints, "
                             f"got {output_size}")
        self.return_indices = bool(return_indices)

    def construct(self, x):
        x, added = _with_batch(x, self._n, type(self).__name__)
        spatial = tuple(x.shape[2:])
        outs = tuple(s if o is None else o for s, o in zip(spatial, self.output_size))
        reduce = ops.mean if self._reduce == "mean" else ops.max
        if not self.return_indices:  # separable: pool one axis at a time
            y = x
            for i, (size, out) in enumerate(zip(spatial, outs)):
                axis = 2 + i
                y = ops.stack([reduce(_take(y, axis, a, b), axis) for a, b in
                               _bounds(size, out)], axis)
            return ops.squeeze(y, 0) if added else y
        values, indices = [], []
        flat_index = np.arange(int(np.prod(spatial))).reshape(spatial)
        for cell in itertools.product(*(_bounds(s, o) for s, o in zip(spatial, outs))):
            key = (slice(None), slice(None)) + tuple(slice(a, b) for a, b in cell)
            box = ops.reshape(ops.getitem(x, key), (x.shape[0], x.shape[1], -1))
            table = flat_index[tuple(slice(a, b) for a, b in cell)].reshape(-1)
            arg = ops.argmax(box, 2)
            values.append(ops.max(box, 2))
            indices.append(ops.gather(sx.Tensor(table), ops.reshape(arg, (-1,)), 0))
        shape = (x.shape[0], x.shape[1]) + outs
        y = ops.reshape(ops.stack(values, 2), shape)
        idx = ops.reshape(ops.stack([ops.reshape(i, (x.shape[0], x.shape[1])) for i in indices],
                                    2), shape)
        if added:
            y, idx = ops.squeeze(y, 0), ops.squeeze(idx, 0)
        return y, idx


class AdaptiveAvgPool1d(_AdaptiveNd):
    """Average over ``output_size`` adaptive windows of (N, C, L)."""
    _n = 1


class AdaptiveAvgPool3d(_AdaptiveNd):
    """Average over adaptive windows of (N, C, D, H, W); ``None`` keeps an axis."""
    _n = 3


class AdaptiveMaxPool1d(_AdaptiveNd):
    """Max over ``output_size`` adaptive windows of (N, C, L)."""
    _n, _reduce = 1, "max"

    def __init__(self, output_size):
        super().__init__(output_size)


class AdaptiveMaxPool2d(_AdaptiveNd):
    """Max over adaptive windows of (N, C, H, W); ``return_indices`` gives flat positions."""
    _n, _reduce = 2, "max"


class AdaptiveMaxPool3d(_AdaptiveNd):
    """Max over adaptive windows of (N, C, D, H, W)."""
    _n, _reduce = 3, "max"


class _LPPoolNd(Cell):
    _n = 1

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        name = type(self).__name__
        if norm_type <= 0:
            raise ValueError(f"{name}: norm_type must be > 0, got {norm_type}")
        self.norm_type = float(norm_type)
        self.kernel_size = ntuple(kernel_size, self._n, "kernel_size", name)
        self.stride = ntuple(stride if stride is not None else kernel_size, self._n,
                             "stride", name)
        self.ceil_mode = bool(ceil_mode)

    def construct(self, x):
        x, added = _with_batch(x, self._n, type(self).__name__)
        p = patches(ops.pow(x, self.norm_type), self.kernel_size, self.stride,
                    (1,) * self._n, self.ceil_mode)
        s = ops.sum(p, 2)
        out = ops.mul(ops.sign(s), ops.pow(ops.abs(s), 1.0 / self.norm_type))
        return ops.squeeze(out, 0) if added else out


class LPPool1d(_LPPoolNd):
    """Power-average pooling ``(sum x^p)^(1/p)`` over (N, C, L)."""
    _n = 1


class LPPool2d(_LPPoolNd):
    """Power-average pooling ``(sum x^p)^(1/p)`` over (N, C, H, W)."""
    _n = 2
