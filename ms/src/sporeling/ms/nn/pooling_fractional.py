"""``FractionalMaxPool2d`` (Graham 2014): max pooling over pseudo-random windows.

Window starts per plane follow MindSpore's (and PyTorch's) rule: with ``u`` the plane's
random sample and ``alpha = (in - k) / (out - 1)``, start ``i`` is
``int((i + u) alpha) - int(u alpha)`` and the last start is ``in - k``; samples are
``(N, C, 2)`` in [0, 1) -- ``[..., 0]`` for the width, ``[..., 1]`` for the height. The
windows are index tables computed from concrete samples (Graph mode needs
``_random_samples``); the values are gathered with ``sx`` indexing, so the gradient flows
to each window's maximum.
"""
from __future__ import annotations

import numpy as np

import sporeling.expression as sx
from sporeling.core.errors import ArgumentError, ShapeError
from sporeling.core.random import generator
from sporeling.expression.graph import is_tracing

from ._windows import ntuple
from .cell import Cell
from .pooling import _with_batch

ops = sx.ops

__all__ = ["FractionalMaxPool2d"]


def _starts(samples, size, out, kernel):
    """(N, C, out) window starts along one axis from (N, C) samples (in their dtype)."""
    starts = np.full(samples.shape + (out,), size - kernel, np.int64)
    if out > 1:
        alpha = samples.dtype.type(size - kernel) / samples.dtype.type(out - 1)
        i = np.arange(out - 1, dtype=samples.dtype)
        u = samples[..., None]
        starts[..., :-1] = ((i + u) * alpha).astype(np.int64) - (u * alpha).astype(np.int64)
    return starts


class FractionalMaxPool2d(Cell):
    """``FractionalMaxPool2d(kernel_size, output_size=None, output_ratio=None,
    return_indices=False, _random_samples=None)`` over (N, C, H, W) or (C, H, W): give
    ``output_size`` (int or (oh, ow)) or ``output_ratio`` (in (0, 1), output =
    int(input * ratio)). ``return_indices`` adds the flat index (h * W + w) of each maximum.
    Without ``_random_samples`` each call draws new samples (``ms.set_seed`` fixes them)."""

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                 _random_samples=None):
        super().__init__()
        name = "FractionalMaxPool2d"
        if (output_size is None) == (output_ratio is None):
            raise ArgumentError("give exactly one of output_size and output_ratio", op=name,
                                expected="output_size or output_ratio",
                                got=(output_size, output_ratio))
        self.kernel_size = ntuple(kernel_size, 2, "kernel_size", name)
        self.output_size = None if output_size is None else \
            ntuple(output_size, 2, "output_size", name)
        if output_ratio is not None:
            ratio = (output_ratio,) * 2 if isinstance(output_ratio, (int, float)) else \
                tuple(output_ratio)
            if len(ratio) != 2 or not all(0 < r < 1 for r in ratio):
                raise ArgumentError("output_ratio must be in (0, 1)", op=name,
                                    expected="a float or two floats in (0, 1)",
                                    got=output_ratio)
            output_ratio = tuple(float(r) for r in ratio)
        self.output_ratio = output_ratio
        self.return_indices = bool(return_indices)
        self._random_samples = _random_samples

    def _out_size(self, h, w):
        if self.output_size is not None:
            return self.output_size
        return int(h * self.output_ratio[0]), int(w * self.output_ratio[1])

    def _samples(self, n, c):
        given = self._random_samples
        if given is None:
            if is_tracing():   # a compiled graph would reuse one draw on every call
                raise ArgumentError("Graph mode needs fixed windows",
                                    op="FractionalMaxPool2d",
                                    expected="_random_samples given (or PyNative mode)",
                                    got="_random_samples=None while tracing")
            return generator("ops").random((n, c, 2), dtype=np.float32)
        samples = np.asarray(given.asnumpy() if hasattr(given, "asnumpy") else given)
        if samples.shape != (n, c, 2):
            raise ShapeError("_random_samples must be (N, C, 2)", op="FractionalMaxPool2d",
                             expected=(n, c, 2), got=samples.shape)
        return samples

    def construct(self, x):
        x, added = _with_batch(x, 2, "FractionalMaxPool2d")
        n, c, h, w = (int(s) for s in x.shape)
        (oh, ow), (kh, kw) = self._out_size(h, w), self.kernel_size
        if oh + kh - 1 > h or ow + kw - 1 > w:
            raise ShapeError("output_size + kernel_size - 1 exceeds the input",
                             op="FractionalMaxPool2d", expected=f"at most ({h}, {w})",
                             got=(oh + kh - 1, ow + kw - 1))
        samples = self._samples(n, c)
        rows = _starts(samples[..., 1], h, oh, kh)[..., None] + np.arange(kh)   # (n,c,oh,kh)
        cols = _starts(samples[..., 0], w, ow, kw)[..., None] + np.arange(kw)   # (n,c,ow,kw)
        flat = rows[:, :, :, None, :, None] * w + cols[:, :, None, :, None, :]
        flat = flat.reshape(n, c, oh, ow, kh * kw)                 # each window's indices
        plane = ops.reshape(x, (n, c, h * w))
        windows = plane[np.arange(n)[:, None, None, None, None],
                        np.arange(c)[None, :, None, None, None], flat]
        out = ops.max(windows, -1)
        if not self.return_indices:
            return ops.squeeze(out, 0) if added else out
        arg = ops.expand_dims(ops.argmax(windows, -1), -1)         # first maximum
        chosen = ops.cast(ops.equal(arg, np.arange(kh * kw)), "int64")
        indices = ops.sum(ops.mul(chosen, flat), -1)
        if added:
            out, indices = ops.squeeze(out, 0), ops.squeeze(indices, 0)
        return out, indices
