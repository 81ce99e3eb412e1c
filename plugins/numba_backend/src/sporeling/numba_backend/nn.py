"""Compiled kernels of the training step's heavy non-fused ops: softmax cross-entropy and
its gradient (one pass per row, no shifted copy of the logits), max pooling and its
scatter gradient (direct loops over windows, no window copy). Outside the shapes they
handle (logits other than 2-D, ...), they run NumPy's kernel."""
from __future__ import annotations

import numpy as np

from sporeling.core import ShapeError
from sporeling.runtime.kernels import NUMPY_KERNELS

from .compiling import parallel_and_serial

__all__ = ["softmax_cross_entropy", "softmax_cross_entropy_grad", "max_pool2d",
           "max_pool2d_scatter"]

_prange = range  # numba.prange once numba compiles these (compiling.jit sets it)


@parallel_and_serial
def _ce_rows(x, labels, ignore_index, losses):
    """Per row: logsumexp(x) - x[label] (0 where ignored); bad labels -> -1 in losses."""
    n, c = x.shape
    for i in _prange(n):
        label = labels[i]
        if label == ignore_index:
            losses[i] = 0
            continue
        m = x[i, 0]
        for j in range(1, c):
            if x[i, j] > m:
                m = x[i, j]
        s = 0.0
        for j in range(c):
            s += np.exp(x[i, j] - m)
        losses[i] = np.log(s) + m - x[i, label]


def _check_labels(labels, classes, ignore_index):
    labels = np.asarray(labels)
    counted = labels[labels != ignore_index]
    if counted.size and (counted.min() < 0 or counted.max() >= classes):
        bad = counted[(counted < 0) | (counted >= classes)]
        raise ShapeError("target class out of range", op="cross_entropy",
                         expected=f"class indices in [0, {classes}) or {ignore_index}",
                         got=int(bad[0]))
    return labels, int(counted.size)


def softmax_cross_entropy(backend, x, labels, out=None, *, reduction, ignore_index):
    if np.ndim(x) != 2 or x.dtype.kind != "f" or x.dtype.itemsize < 4 or x.shape[1] == 0:
        return NUMPY_KERNELS["softmax_cross_entropy"](
            backend, x, labels, out=out, reduction=reduction, ignore_index=ignore_index)
    labels, counted = _check_labels(labels, x.shape[1], ignore_index)
    x = np.ascontiguousarray(x)
    losses = np.empty(x.shape[0], x.dtype)
    _ce_rows(x.size)(x, np.ascontiguousarray(labels, np.int64), ignore_index, losses)
    if reduction == "none":
        y = backend.allocate(losses.shape, x.dtype) if out is None else out
        np.copyto(y, losses)
        return y
    y = backend.allocate((), x.dtype) if out is None else out
    total = np.add.reduce(losses, dtype=x.dtype)
    if reduction == "mean":
        total = total / np.asarray(counted, x.dtype) if counted else np.asarray(np.nan, x.dtype)
    np.copyto(y, total, casting="unsafe")
    return y


@parallel_and_serial
def _ce_grad_rows(x, labels, ignore_index, scale, per_row, out):
    """out = (softmax(x) - onehot(label)) * scale[i or 0]; 0 rows where ignored (when
    ``per_row`` is false the ignored rows of a mean/sum are zeroed here too)."""
    n, c = x.shape
    for i in _prange(n):
        label = labels[i]
        k = scale[i] if per_row else scale[0]
        if label == ignore_index:
            for j in range(c):
                out[i, j] = 0
            continue
        m = x[i, 0]
        for j in range(1, c):
            if x[i, j] > m:
                m = x[i, j]
        s = 0.0
        for j in range(c):
            e = np.exp(x[i, j] - m)
            out[i, j] = e
            s += e
        f = k / s
        for j in range(c):
            out[i, j] = out[i, j] * f
        out[i, label] -= k


def softmax_cross_entropy_grad(backend, x, labels, ct, out=None, *, reduction,
                               ignore_index):
    if np.ndim(x) != 2 or x.dtype.kind != "f" or x.dtype.itemsize < 4 or x.shape[1] == 0:
        return NUMPY_KERNELS["softmax_cross_entropy_grad"](
            backend, x, labels, ct, out=out, reduction=reduction, ignore_index=ignore_index)
    labels, counted = _check_labels(labels, x.shape[1], ignore_index)
    ct = np.asarray(ct)
    if reduction == "none":
        scale = np.ascontiguousarray(ct, x.dtype).reshape(-1)
    elif reduction == "mean":
        scale = (ct / np.asarray(counted, ct.dtype) if counted else
                 np.asarray(np.nan, ct.dtype)).astype(x.dtype).reshape(1)
    else:
        scale = ct.astype(x.dtype).reshape(1)
    y = backend.allocate(x.shape, x.dtype) if out is None else out
    # the logits are read row by row before the row is written: out may be x (in place)
    _ce_grad_rows(x.size)(np.ascontiguousarray(x), np.ascontiguousarray(labels, np.int64),
                  ignore_index, scale, reduction == "none", y)
    return y


# ---- max pooling ---------------------------------------------------------------------

@parallel_and_serial
def _max_pool(x, kh, kw, sh, sw, pt, pl, dh, dw, y, index):
    n, c, h, w = x.shape
    oh, ow = y.shape[2], y.shape[3]
    for p in _prange(n * c):
        b, ch = p // c, p % c
        for i in range(oh):
            for j in range(ow):
                best = -np.inf
                arg = 0
                for u in range(kh):
                    r = i * sh - pt + u * dh
                    for v in range(kw):
                        q = j * sw - pl + v * dw
                        if 0 <= r < h and 0 <= q < w:
                            val = x[b, ch, r, q]
                        else:
                            val = -np.inf  # padding: never above a real value
                        if val > best or (arg == 0 and u == 0 and v == 0):
                            best = val
                            arg = u * kw + v
                y[b, ch, i, j] = best
                index[b, ch, i, j] = arg


def _plain_float(x):
    return x.dtype.kind == "f" and x.dtype.itemsize >= 4


def max_pool2d(backend, x, out=None, *, kernel_size, stride, padding, dilation):
    """``(maxima, argmax in the window)``, the first maximum as NumPy's ``argmax``."""
    if np.ndim(x) != 4 or not _plain_float(x) or x.size == 0 or np.isnan(x).any():
        return NUMPY_KERNELS["max_pool2d"](backend, x, out=out, kernel_size=kernel_size,
                                           stride=stride, padding=padding, dilation=dilation)
    (kh, kw), (sh, sw), ((pt, pb), (pl, pr)), (dh, dw) = kernel_size, stride, padding, dilation
    n, c, h, w = x.shape
    oh = (h + pt + pb - dh * (kh - 1) - 1) // sh + 1
    ow = (w + pl + pr - dw * (kw - 1) - 1) // sw + 1
    y, index = out if out is not None else (None, None)
    y = backend.allocate((n, c, oh, ow), x.dtype) if y is None else y
    index = backend.allocate((n, c, oh, ow), np.int64) if index is None else index
    _max_pool(x.size)(np.ascontiguousarray(x), kh, kw, sh, sw, pt, pl, dh, dw, y, index)
    return y, index


@parallel_and_serial
def _max_pool_scatter(g, index, kw, sh, sw, pt, pl, dh, dw, dx):
    n, c, oh, ow = g.shape
    h, w = dx.shape[2], dx.shape[3]
    for p in _prange(n * c):
        b, ch = p // c, p % c
        for r in range(h):
            for q in range(w):
                dx[b, ch, r, q] = 0
        for i in range(oh):
            for j in range(ow):
                k = index[b, ch, i, j]
                r = i * sh - pt + (k // kw) * dh
                q = j * sw - pl + (k % kw) * dw
                if 0 <= r < h and 0 <= q < w:
                    dx[b, ch, r, q] += g[b, ch, i, j]


def max_pool2d_scatter(backend, g, index, out=None, *, input_size, kernel_size, stride,
                       padding, dilation):
    """Each of ``g``'s values added at its window's argmax (one plane per thread)."""
    if np.ndim(g) != 4 or not _plain_float(g):
        return NUMPY_KERNELS["max_pool2d_scatter"](
            backend, g, index, out=out, input_size=input_size, kernel_size=kernel_size,
            stride=stride, padding=padding, dilation=dilation)
    n, c = g.shape[:2]
    dx = backend.allocate((n, c) + tuple(input_size), g.dtype) if out is None else out
    (_, kw), (sh, sw), ((pt, _), (pl, _)), (dh, dw) = kernel_size, stride, padding, dilation
    _max_pool_scatter(dx.size)(np.ascontiguousarray(g), np.ascontiguousarray(index, np.int64), kw,
                      sh, sw, pt, pl, dh, dw, dx)
    return dx
