"""Sliding windows over the last two axes: padding, a strided view of every window, and
the transpose (adding window-shaped slabs back onto the input's canvas)."""
from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import as_strided

__all__ = ["pad2d", "window_view", "add_windows", "crop2d", "matmul_into", "fill_value"]


def pad2d(x: np.ndarray, padding, value=0) -> np.ndarray:
    """``x`` with ``padding = ((top, bottom), (left, right))`` around its last two axes."""
    (pt, pb), (pl, pr) = padding
    if not (pt or pb or pl or pr):
        return x
    h, w = x.shape[-2:]
    out = np.full(x.shape[:-2] + (h + pt + pb, w + pl + pr), value, x.dtype)
    out[..., pt:pt + h, pl:pl + w] = x
    return out


def window_view(xp: np.ndarray, kernel, stride, dilation, out_hw) -> np.ndarray:
    """Read-only view ``(..., OH, OW, KH, KW)`` of every window of ``xp``: no copy."""
    *lead, sh, sw = xp.strides
    return as_strided(xp, xp.shape[:-2] + tuple(out_hw) + tuple(kernel),
                      tuple(lead) + (sh * stride[0], sw * stride[1],
                                     sh * dilation[0], sw * dilation[1]), writeable=False)


def add_windows(canvas: np.ndarray, slab, kernel, stride, dilation, out_hw) -> None:
    """``canvas[..., window (i, j)] += slab(i, j)`` for every kernel offset: the transpose
    of :func:`window_view` (col2im), one strided add per offset."""
    (kh, kw), (sh, sw), (dh, dw), (oh, ow) = kernel, stride, dilation, out_hw
    for i in range(kh):
        rows = slice(i * dh, i * dh + (oh - 1) * sh + 1, sh)
        for j in range(kw):
            canvas[..., rows, j * dw:j * dw + (ow - 1) * sw + 1:sw] += slab(i, j)


def crop2d(canvas: np.ndarray, padding, size, out: np.ndarray) -> np.ndarray:
    """``out[...] = canvas`` without its padding."""
    (pt, _), (pl, _) = padding
    out[...] = canvas[..., pt:pt + size[0], pl:pl + size[1]]
    return out


def matmul_into(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> np.ndarray:
    """``np.matmul`` into ``out`` (types NumPy cannot write directly go through a copy)."""
    if out.dtype.kind == "f" and out.dtype.itemsize >= 4:
        return np.matmul(a, b, out=out)
    out[...] = np.matmul(a, b)
    return out


def fill_value(dtype: np.dtype, lowest: bool):
    """``-inf`` (or the lowest integer) for max-padding, else 0."""
    if not lowest:
        return 0
    return -np.inf if dtype.kind not in "iub" else np.iinfo(dtype).min
