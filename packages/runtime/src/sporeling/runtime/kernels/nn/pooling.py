"""Pooling kernels (NCHW): max pooling with its argmax, its scatter/gather gradients, and
average pooling with its transpose. Windows are strided views (no copy until a reduction
needs one)."""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from ...kernel_registry import KernelMemory
from ..table import define, output, writes_out
from ._windows import add_windows, crop2d, fill_value, pad2d, window_view


def _out_size(size, kernel, stride, padding, dilation=(1, 1)):
    return tuple((n + lo + hi - d * (k - 1) - 1) // s + 1
                 for n, k, s, (lo, hi), d in zip(size, kernel, stride, padding, dilation))


def _flat_windows(x, kernel_size, stride, padding, dilation, lowest):
    """Every window as a row: ``(N, C, OH, OW, KH*KW)`` (a copy)."""
    out_hw = _out_size(x.shape[2:], kernel_size, stride, padding, dilation)
    xp = pad2d(x, padding, fill_value(x.dtype, lowest))
    win = window_view(xp, kernel_size, stride, dilation, out_hw)
    return win.reshape(x.shape[:2] + out_hw + (kernel_size[0] * kernel_size[1],))


@define("max_pool2d", memory=KernelMemory.FRESH)
def max_pool2d(backend, x, out=None, *, kernel_size, stride, padding, dilation):
    """``(maxima, argmax)``; the argmax is the offset inside the window (first maximum)."""
    flat = _flat_windows(x, kernel_size, stride, padding, dilation, lowest=True)
    y, index = out if out is not None else (None, None)
    y = output(backend, y, flat.shape[:-1], x.dtype)
    index = output(backend, index, flat.shape[:-1], np.int64)
    np.argmax(flat, axis=-1, out=index)
    y[...] = np.take_along_axis(flat, index[..., None], axis=-1)[..., 0]
    return y, index


@define("max_pool2d_scatter", memory=writes_out())
def max_pool2d_scatter(backend, g, index, out=None, *, input_size, kernel_size, stride,
                       padding, dilation):
    """Each of ``g``'s values added at its window's argmax: the gradient of max pooling."""
    (pt, pb), (pl, pr) = padding
    n, c, oh, ow = g.shape
    (kh, kw), (h, w) = kernel_size, input_size
    if (tuple(stride) == tuple(kernel_size) and not (pt or pb or pl or pr)
            and (oh * kh, ow * kw) == (h, w) and tuple(dilation) == (1, 1)):
        # windows tile the input (LeNet's 2x2/2): vectorised writes, no loop; a position
        # that is not its window's argmax gets 0 whatever the gradient (not 0 * inf)
        dx = output(backend, out, (n, c, h, w), g.dtype)
        hit = index[..., None] == np.arange(kh * kw)
        tiles = dx.reshape(n, c, oh, kh, ow, kw).transpose(0, 1, 2, 4, 3, 5)
        tiles[...] = 0
        np.copyto(tiles, g[..., None, None], where=hit.reshape(n, c, oh, ow, kh, kw))
        return dx
    canvas = np.zeros((n, c, h + pt + pb, w + pl + pr), g.dtype)
    add_windows(canvas, lambda i, j: np.where(index == i * kw + j, g, 0), kernel_size,
                stride, dilation, g.shape[2:])
    return crop2d(canvas, padding, input_size,
                  output(backend, out, (n, c) + tuple(input_size), g.dtype))


@define("max_pool2d_gather", memory=writes_out())
def max_pool2d_gather(backend, v, index, out=None, *, input_size, kernel_size, stride,
                      padding, dilation):
    """``v`` read at each window's argmax (the adjoint of ``max_pool2d_scatter``)."""
    flat = _flat_windows(v, kernel_size, stride, padding, dilation, lowest=False)
    y = output(backend, out, index.shape, v.dtype)
    y[...] = np.take_along_axis(flat, index[..., None], axis=-1)[..., 0]
    return y


@lru_cache(maxsize=256)
def _divisor(size, kernel_size, stride, padding, count_include_pad, dtype):
    """The window sizes: a scalar, or (OH, OW) counts of non-padding elements."""
    if count_include_pad:
        return 1.0 / (kernel_size[0] * kernel_size[1])
    counts = []
    for n, k, s, (lo, hi) in zip(size, kernel_size, stride, padding):
        starts = np.arange((n + lo + hi - k) // s + 1) * s - lo
        counts.append(np.minimum(starts + k, n) - np.maximum(starts, 0))
    return (1.0 / np.multiply.outer(*counts)).astype(dtype)


@define("avg_pool2d", memory=writes_out())
def avg_pool2d(backend, x, out=None, *, kernel_size, stride, padding, count_include_pad):
    """Mean of each window (padding counts in the divisor with ``count_include_pad``)."""
    out_hw = _out_size(x.shape[2:], kernel_size, stride, padding)
    win = window_view(pad2d(x, padding), kernel_size, stride, (1, 1), out_hw)
    y = output(backend, out, x.shape[:2] + out_hw, x.dtype)
    np.sum(win, axis=(4, 5), out=y)
    y *= _divisor(x.shape[2:], kernel_size, stride, padding, count_include_pad, x.dtype)
    return y


@define("avg_pool2d_transpose", memory=writes_out())
def avg_pool2d_transpose(backend, g, out=None, *, input_size, kernel_size, stride, padding,
                         count_include_pad):
    """Each window's share of ``g`` spread back over the window (the adjoint of
    ``avg_pool2d``)."""
    (pt, pb), (pl, pr) = padding
    n, c = g.shape[:2]
    share = g * _divisor(tuple(input_size), kernel_size, stride, padding, count_include_pad,
                         g.dtype)
    canvas = np.zeros((n, c, input_size[0] + pt + pb, input_size[1] + pl + pr), g.dtype)
    add_windows(canvas, lambda i, j: share, kernel_size, stride, (1, 1), g.shape[2:])
    return crop2d(canvas, padding, input_size,
                  output(backend, out, (n, c) + tuple(input_size), g.dtype))
