"""Index-based pooling cells of ``ms.nn``: ``MaxUnpool1d/2d/3d`` (values back at the flat
indices a max pool returned) and ``FractionalMaxPool3d`` (pseudo-random windows)."""
from __future__ import annotations

import itertools

import numpy as np

import sporeling.expression as sx
from sporeling.core.errors import ShapeError

from .cell import Cell
from ._windows import ntuple
from .pooling import _with_batch

ops = sx.ops

__all__ = ["FractionalMaxPool3d", "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d"]


class _MaxUnpoolNd(Cell):
    _n = 1

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        name = type(self).__name__
        self.kernel_size = ntuple(kernel_size, self._n, "kernel_size", name)
        self.stride = ntuple(stride if stride is not None else kernel_size, self._n,
                             "stride", name)
        self.padding = ntuple(padding, self._n, "padding", name)

    def construct(self, x, indices, output_size=None):
        x, added = _with_batch(x, self._n, type(self).__name__)
        if added:
            indices = ops.expand_dims(indices, 0)
        if tuple(indices.shape) != tuple(x.shape):
            raise ShapeError("indices do not match the input", op=type(self).__name__,
                             expected=tuple(x.shape), got=tuple(indices.shape))
        if output_size is None:
            out = tuple((i - 1) * s - 2 * p + k for i, s, p, k in
                        zip(x.shape[2:], self.stride, self.padding, self.kernel_size))
        else:
            out = tuple(output_size)[-self._n:]
        n, c = x.shape[0], x.shape[1]
        flat = ops.mul(ops.reshape(x, (n, c, -1)), 0.0)
        zeros = ops.broadcast_to(ops.getitem(flat, (slice(None), slice(None), slice(0, 1))),
                                 (n, c, int(np.prod(out))))
        y = ops.scatter_add(zeros, ops.reshape(ops.cast(indices, "int64"), (n, c, -1)),
                            ops.reshape(x, (n, c, -1)), 2)
        y = ops.reshape(y, (n, c) + out)
        return ops.squeeze(y, 0) if added else y


class MaxUnpool1d(_MaxUnpoolNd):
    """Inverse of ``MaxPool1d(return_indices=True)``: values back at their indices, zeros
    elsewhere."""
    _n = 1


class MaxUnpool2d(_MaxUnpoolNd):
    """Inverse of ``MaxPool2d(return_indices=True)``."""
    _n = 2


class MaxUnpool3d(_MaxUnpoolNd):
    """Inverse of ``MaxPool3d(return_indices=True)``."""
    _n = 3


class FractionalMaxPool3d(Cell):
    """Fractional max pooling over (N, C, D, H, W): windows of ``kernel_size`` start at
    pseudo-random positions (Graham's sequence from ``_random_samples`` in [0, 1), shape
    (N, C, 3), drawn uniformly if omitted) so the output has ``output_size`` (or
    ``output_ratio`` times the input) per axis."""

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                 _random_samples=None):
        super().__init__()
        if (output_size is None) == (output_ratio is None):
            raise ValueError("FractionalMaxPool3d: give exactly one of output_size and "
                             "output_ratio")
        self.kernel_size = ntuple(kernel_size, 3, "kernel_size", "FractionalMaxPool3d")
        self.output_size = None if output_size is None else ntuple(output_size, 3,
                                                                    "output_size",
                                                                    "FractionalMaxPool3d")
        self.output_ratio = None if output_ratio is None else (
            (float(output_ratio),) * 3 if isinstance(output_ratio, (int, float))
            else tuple(float(r) for r in output_ratio))
        self.return_indices = bool(return_indices)
        self._random_samples = _random_samples

    @staticmethod
    def _starts(size, out, k, u):
        """PyTorch/MindSpore's interval sequence for one axis and sample ``u``."""
        if out == 1:
            return [size - k]
        alpha = (size - k) / (out - 1)
        starts = [int((i + u) * alpha) - int(u * alpha) for i in range(out - 1)]
        return starts + [size - k]

    def construct(self, x):
        x, added = _with_batch(x, 3, "FractionalMaxPool3d")
        n, c = x.shape[0], x.shape[1]
        spatial = tuple(x.shape[2:])
        outs = self.output_size or tuple(int(s * r) for s, r in zip(spatial, self.output_ratio))
        samples = self._random_samples
        if samples is None:  # drawn from the "ops" stream so set_seed reproduces it
            from sporeling.core import generator
            samples = generator("ops").random((n, c, 3))
        samples = np.asarray(samples.asnumpy() if hasattr(samples, "asnumpy") else samples)
        flat = np.arange(int(np.prod(spatial))).reshape(spatial)
        planes_v, planes_i = [], []
        for b in range(n):
            for ch in range(c):
                starts = [self._starts(s, o, k, samples[b, ch, 2 - a]) for a, (s, o, k) in
                          enumerate(zip(spatial, outs, self.kernel_size))]
                plane = ops.getitem(x, (b, ch))
                vals, idxs = [], []
                for d0, h0, w0 in itertools.product(*starts):
                    key = (slice(d0, d0 + self.kernel_size[0]),
                           slice(h0, h0 + self.kernel_size[1]),
                           slice(w0, w0 + self.kernel_size[2]))
                    box = ops.reshape(ops.getitem(plane, key), (-1,))
                    vals.append(ops.max(box))
                    idxs.append(ops.gather(sx.Tensor(flat[key].reshape(-1)),
                                           ops.argmax(box), 0))
                planes_v.append(ops.reshape(ops.stack(vals), outs))
                planes_i.append(ops.reshape(ops.stack(idxs), outs))
        y = ops.reshape(ops.stack(planes_v), (n, c) + outs)
        idx = ops.reshape(ops.stack(planes_i), (n, c) + outs)
        if added:
            y, idx = ops.squeeze(y, 0), ops.squeeze(idx, 0)
        return (y, idx) if self.return_indices else y
