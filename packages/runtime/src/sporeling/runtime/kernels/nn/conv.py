"""Convolution kernels (NCHW): ``conv2d``, ``conv_transpose2d``, ``conv2d_weight_grad``.

im2col: the padded input's windows (a strided view) are copied once into columns
``(N, groups, C/groups * KH * KW, OH * OW)`` and multiplied by the weight in one batched
matmul whose output is already NCHW. The transpose scatters columns back with one strided
add per kernel offset.
"""
from __future__ import annotations

import numpy as np

from ..table import define, output
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


@define("conv2d")
def conv2d(backend, x, w, out=None, *, stride, padding, dilation, groups):
    """Cross-correlation of ``x`` (N, C, H, W) with ``w`` (O, C/groups, KH, KW)."""
    o = w.shape[0]
    cols, (oh, ow) = im2col(x, w.shape[2:], stride, padding, dilation, groups)
    y = output(backend, out, (x.shape[0], o, oh, ow), x.dtype)
    matmul_into(w.reshape(groups, o // groups, -1), cols,
                y.reshape(x.shape[0], groups, o // groups, oh * ow))
    return y


@define("conv_transpose2d")
def conv_transpose2d(backend, y, w, out=None, *, stride, padding, dilation, groups,
                     output_padding):
    """The adjoint of ``conv2d`` in its input: ``y`` (N, O, OH, OW) -> (N, C, H, W)."""
    n, o, oh, ow = y.shape
    _, cg, kh, kw = w.shape
    c = cg * groups
    size = tuple((m - 1) * s - lo - hi + d * (k - 1) + 1 + p
                 for m, k, s, (lo, hi), d, p in zip((oh, ow), (kh, kw), stride, padding,
                                                    dilation, output_padding))
    wt = w.reshape(groups, o // groups, cg * kh * kw).transpose(0, 2, 1)
    cols = np.matmul(wt, y.reshape(n, groups, o // groups, oh * ow))
    cols = cols.reshape(n, c, kh, kw, oh, ow)
    z = output(backend, out, (n, c) + size, y.dtype)
    (pt, pb), (pl, pr) = padding
    canvas = z if not (pt or pb or pl or pr) else \
        np.empty((n, c, size[0] + pt + pb, size[1] + pl + pr), y.dtype)
    canvas.fill(0)
    add_windows(canvas, lambda i, j: cols[:, :, i, j], (kh, kw), stride, dilation, (oh, ow))
    return z if canvas is z else crop2d(canvas, padding, size, z)


@define("conv2d_weight_grad")
def conv2d_weight_grad(backend, x, g, out=None, *, stride, padding, dilation, groups,
                       kernel_size):
    """The adjoint of ``conv2d`` in its weight: correlate ``x`` with the output gradient."""
    n, c = x.shape[:2]
    o = g.shape[1]
    cols, (oh, ow) = im2col(x, tuple(kernel_size), stride, padding, dilation, groups)
    per_sample = np.matmul(g.reshape(n, groups, o // groups, oh * ow), cols.swapaxes(2, 3))
    dw = output(backend, out, (o, c // groups) + tuple(kernel_size), x.dtype)
    np.sum(per_sample, axis=0, out=dw.reshape(per_sample.shape[1:]))
    return dw
