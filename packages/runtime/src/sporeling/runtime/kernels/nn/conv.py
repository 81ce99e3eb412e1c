"""Convolution kernels (NCHW): ``conv2d``, ``conv_transpose2d``, ``conv2d_weight_grad``.

im2col: the padded input's windows (a strided view) are copied once into columns
``(N, groups, C/groups * KH * KW, OH * OW)`` and multiplied by the weight in one batched
matmul whose output is already NCHW. The transpose scatters columns back with one strided
add per kernel offset.

16-bit floats (float16, bfloat16) are computed in float32 and rounded once into the 16-bit
output (see :data:`..linalg.LOW_FLOATS`): NumPy has no fast 16-bit matmul.
"""
from __future__ import annotations

import numpy as np

from ..linalg import LOW_FLOATS, widened
from ..table import define, output, writes_out
from ._windows import add_windows, crop2d, matmul_into, pad2d, window_view


def _out_size(size, kernel, stride, padding, dilation):
    return tuple((n + lo + hi - d * (k - 1) - 1) // s + 1
                 for n, k, s, (lo, hi), d in zip(size, kernel, stride, padding, dilation))


def im2col(x, kernel, stride, padding, dilation, groups):
    """Columns ``(N, G, C/G * KH * KW, OH * OW)`` and ``(OH, OW)``."""
    n, c, h, w = x.shape
    out_hw = _out_size((h, w), kernel, stride, padding, dilation)
    win = window_view(pad2d(x, padding), kernel, stride, dilation, out_hw)
    win = win.reshape((n, groups, c // groups) + win.shape[2:])    # N G Cg OH OW KH KW
    cols = win.transpose(0, 1, 2, 5, 6, 3, 4).reshape(
        n, groups, (c // groups) * kernel[0] * kernel[1], out_hw[0] * out_hw[1])
    return cols, out_hw


@define("conv2d", memory=writes_out())
def conv2d(backend, x, w, out=None, *, stride, padding, dilation, groups):
    """Cross-correlation of ``x`` (N, C, H, W) with ``w`` (O, C/groups, KH, KW)."""
    o, y_dtype = w.shape[0], x.dtype
    x, w = widened(x), widened(w)  # 16-bit: columns in float32, y rounded once
    cols, (oh, ow) = im2col(x, w.shape[2:], stride, padding, dilation, groups)
    y = output(backend, out, (x.shape[0], o, oh, ow), y_dtype)
    matmul_into(w.reshape(groups, o // groups, -1), cols,
                y.reshape(x.shape[0], groups, o // groups, oh * ow))
    return y


@define("conv_transpose2d", memory=writes_out())
def conv_transpose2d(backend, y, w, out=None, *, stride, padding, dilation, groups,
                     output_padding):
    """The adjoint of ``conv2d`` in its input: ``y`` (N, O, OH, OW) -> (N, C, H, W)."""
    n, o, oh, ow = y.shape
    _, cg, kh, kw = w.shape
    c = cg * groups
    size = tuple((m - 1) * s - lo - hi + d * (k - 1) + 1 + p
                 for m, k, s, (lo, hi), d, p in zip((oh, ow), (kh, kw), stride, padding,
                                                    dilation, output_padding))
    z = output(backend, out, (n, c) + size, y.dtype)
    low = y.dtype in LOW_FLOATS  # 16-bit: products and sums in float32, z rounded once
    y, w = widened(y), widened(w)
    wt = w.reshape(groups, o // groups, cg * kh * kw).transpose(0, 2, 1)
    cols = np.matmul(wt, y.reshape(n, groups, o // groups, oh * ow))
    cols = cols.reshape(n, c, kh, kw, oh, ow)
    (pt, pb), (pl, pr) = padding
    canvas = z if not (pt or pb or pl or pr or low) else \
        np.empty((n, c, size[0] + pt + pb, size[1] + pl + pr), y.dtype)
    canvas.fill(0)
    add_windows(canvas, lambda i, j: cols[:, :, i, j], (kh, kw), stride, dilation, (oh, ow))
    return z if canvas is z else crop2d(canvas, padding, size, z)


@define("conv2d_weight_grad", memory=writes_out())
def conv2d_weight_grad(backend, x, g, out=None, *, stride, padding, dilation, groups,
                       kernel_size):
    """The adjoint of ``conv2d`` in its weight: correlate ``x`` with the output gradient."""
    n, c = x.shape[:2]
    o = g.shape[1]
    dw = output(backend, out, (o, c // groups) + tuple(kernel_size), x.dtype)
    x, g = widened(x), widened(g)  # 16-bit: float32 products and sum, dw rounded once
    cols, (oh, ow) = im2col(x, tuple(kernel_size), stride, padding, dilation, groups)
    per_sample = np.matmul(g.reshape(n, groups, o // groups, oh * ow), cols.swapaxes(2, 3))
    if per_sample.dtype != dw.dtype:
        dw.reshape(per_sample.shape[1:])[...] = per_sample.sum(axis=0)
        return dw
    np.sum(per_sample, axis=0, out=dw.reshape(per_sample.shape[1:]))
    return dw
