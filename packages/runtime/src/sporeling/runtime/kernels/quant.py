"""Kernels of the quantisation primitives: quantize / dequantize (round half to even, as
ONNX's QuantizeLinear) and the integer convolution and matmul that take int8 operands and
accumulate in int32 (exact: no float rounding in the sums)."""
from __future__ import annotations

import numpy as np

from .nn._windows import pad2d, window_view
from .nn.conv import _out_size
from .table import define, output


def _along(v: np.ndarray, axis, ndim: int) -> np.ndarray:
    """A scale or zero point shaped to broadcast along ``axis`` (scalar: as it is)."""
    if axis is None:
        return v
    shape = [1] * ndim
    shape[axis % ndim] = -1
    return v.reshape(shape)


@define("quantize")
def quantize(backend, x, scale, zero_point, out=None, *, axis):
    info = np.iinfo(zero_point.dtype)
    s = _along(np.asarray(scale, np.float32), axis, x.ndim)
    zp = _along(np.asarray(zero_point, np.int32), axis, x.ndim)
    q = np.rint(np.asarray(x, np.float32) / s) + zp
    res = output(backend, out, x.shape, zero_point.dtype)
    np.copyto(res, np.clip(q, info.min, info.max), casting="unsafe")
    return res


@define("dequantize")
def dequantize(backend, q, scale, zero_point, out=None, *, axis):
    s = _along(np.asarray(scale, np.float32), axis, q.ndim)
    zp = _along(np.asarray(zero_point, np.int32), axis, q.ndim)
    res = output(backend, out, q.shape, np.float32)
    np.multiply(q.astype(np.int32) - zp, s, out=res, casting="same_kind")
    return res


def _centred(x: np.ndarray, zero_point: int) -> np.ndarray:
    """``x - zero_point`` in int32 (int8 operands would overflow)."""
    x32 = x.astype(np.int32)
    if zero_point:
        x32 -= np.int32(zero_point)
    return x32


@define("qmatmul")
def qmatmul(backend, a, b, out=None, *, a_zero_point):
    res = output(backend, out, (a.shape[0], b.shape[1]), np.int32)
    return np.matmul(_centred(a, a_zero_point), b.astype(np.int32), out=res)


@define("qconv2d")
def qconv2d(backend, x, w, out=None, *, x_zero_point, stride, padding, dilation, groups):
    n, c, h, wd = x.shape
    o, kh, kw = w.shape[0], w.shape[2], w.shape[3]
    oh, ow = _out_size((h, wd), (kh, kw), stride, padding, dilation)
    # pad the centred value with zeros: padding stands for the real value 0
    xp = pad2d(_centred(x, x_zero_point), padding)
    win = window_view(xp, (kh, kw), stride, dilation, (oh, ow))   # N C OH OW KH KW
    win = win.reshape((n, groups, c // groups) + win.shape[2:])
    cols = win.transpose(0, 1, 3, 4, 2, 5, 6).reshape(n, groups, oh * ow, -1)
    wg = w.astype(np.int32).reshape(groups, o // groups, -1)       # G Og (Cg KH KW)
    y = np.matmul(cols, wg.transpose(0, 2, 1)[None])               # N G (OH OW) Og
    res = output(backend, out, (n, o, oh, ow), np.int32)
    res[...] = y.transpose(0, 1, 3, 2).reshape(n, o, oh, ow)
    return res


@define("fake_quant")
def fake_quant(backend, x, out=None, *, scale, zero_point, qmin, qmax):
    res = output(backend, out, x.shape, x.dtype)
    q = np.clip(np.rint(x / x.dtype.type(scale)) + zero_point, qmin, qmax)
    np.multiply(q - zero_point, x.dtype.type(scale), out=res, casting="same_kind")
    return res
