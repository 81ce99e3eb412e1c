"""Convolution: forward, backward-data (``conv_transpose2d``) and backward-weights
(``conv2d_weight_grad``), NCHW at the edges, the layouts inside chosen by oneDNN.

Weights and activations are described as "any" so each primitive picks its blocked layout
(plain NCHW makes oneDNN fall back to GEMM kernels several times slower); reorders at the
edges convert the user's plain buffers. oneDNN counts "no dilation" as 0, so ours minus one.
Groups: the weight ``(O, C/g, KH, KW)`` is the same memory as oneDNN's ``(g, O/g, C/g, KH,
KW)``.
"""
from __future__ import annotations

from .. import constants as C
from ..lib import dims
from ..memory import Desc
from ..plan import PrimitiveDesc, cached_plan
from ._serve import contiguous, onednn_kernel, output

_ANY, _PLAIN = Desc.any, Desc.plain


def _geometry(stride, padding, dilation):
    (pt, pb), (pl, pr) = padding
    return (dims(stride), dims(d - 1 for d in dilation), dims((pt, pl)), dims((pb, pr)))


def _weight_shape(w_shape, groups):
    o, cg, kh, kw = w_shape
    return (groups, o // groups, cg, kh, kw) if groups > 1 else tuple(w_shape)


def _forward_pd(x_shape, w_shape, y_shape, dtype, geometry, groups, prop):
    ws = _weight_shape(w_shape, groups)
    return PrimitiveDesc("convolution_forward", prop, C.dnnl_convolution_direct,
                         _ANY(x_shape, dtype), _ANY(ws, dtype), None,
                         _ANY(y_shape, dtype), *geometry)


def _out_hw(hw, kernel, stride, padding, dilation):
    return tuple((n + lo + hi - d * (k - 1) - 1) // s + 1
                 for n, k, s, (lo, hi), d in zip(hw, kernel, stride, padding, dilation))


@onednn_kernel("conv2d")
def conv2d(backend, x, w, out=None, *, stride, padding, dilation, groups):
    x, w = contiguous(x), contiguous(w)

    def build(b):
        y_shape = x.shape[:1] + w.shape[:1] + _out_hw(x.shape[2:], w.shape[2:], stride,
                                                      padding, dilation)
        geometry = _geometry(stride, padding, dilation)
        pd = _forward_pd(x.shape, w.shape, y_shape, x.dtype, geometry, groups,
                         C.dnnl_forward_training)
        b.at_edges(pd, [(C.DNNL_ARG_SRC, _PLAIN(x.shape, x.dtype), C.dnnl_query_src_md),
                        (C.DNNL_ARG_WEIGHTS, _PLAIN(_weight_shape(w.shape, groups), w.dtype),
                         C.dnnl_query_weights_md)],
                   (C.DNNL_ARG_DST, _PLAIN(y_shape, x.dtype), C.dnnl_query_dst_md))
        b.extra = y_shape

    plan = cached_plan(("conv2d", x.shape, w.shape, x.dtype, stride, padding, dilation,
                        groups), build)
    y = output(backend, out, plan.extra, x.dtype)
    plan.run(x, w, y)
    return y


@onednn_kernel("conv_transpose2d")
def conv_transpose2d(backend, g, w, out=None, *, stride, padding, dilation, groups,
                     output_padding):
    """The adjoint of ``conv2d`` in its input: convolution backward-data."""
    g, w = contiguous(g), contiguous(w)
    n, o, oh, ow = g.shape
    _, cg, kh, kw = w.shape
    size = tuple((m - 1) * s - lo - hi + d * (k - 1) + 1 + p
                 for m, k, s, (lo, hi), d, p in zip((oh, ow), (kh, kw), stride, padding,
                                                    dilation, output_padding))
    x_shape = (n, cg * groups) + size
    dx = output(backend, out, x_shape, g.dtype)

    def build(b):
        geometry = _geometry(stride, padding, dilation)
        hint = _forward_pd(x_shape, w.shape, g.shape, g.dtype, geometry, groups,
                           C.dnnl_forward_training)
        pd = PrimitiveDesc("convolution_backward_data", C.dnnl_convolution_direct,
                           _ANY(x_shape, g.dtype),
                           _ANY(_weight_shape(w.shape, groups), w.dtype),
                           _ANY(g.shape, g.dtype), *geometry, hint)
        b.keep.append(hint)
        b.at_edges(pd, [(C.DNNL_ARG_DIFF_DST, _PLAIN(g.shape, g.dtype),
                         C.dnnl_query_diff_dst_md),
                        (C.DNNL_ARG_WEIGHTS, _PLAIN(_weight_shape(w.shape, groups), w.dtype),
                         C.dnnl_query_weights_md)],
                   (C.DNNL_ARG_DIFF_SRC, _PLAIN(x_shape, dx.dtype), C.dnnl_query_diff_src_md))

    key = ("conv_transpose2d", g.shape, w.shape, g.dtype, stride, padding, dilation,
           groups, output_padding)
    cached_plan(key, build).run(g, w, dx)
    return dx


@onednn_kernel("conv2d_weight_grad")
def conv2d_weight_grad(backend, x, g, out=None, *, stride, padding, dilation, groups,
                       kernel_size):
    """The adjoint of ``conv2d`` in its weight: convolution backward-weights."""
    x, g = contiguous(x), contiguous(g)
    w_shape = (g.shape[1], x.shape[1] // groups) + tuple(kernel_size)
    dw = output(backend, out, w_shape, x.dtype)

    def build(b):
        geometry = _geometry(stride, padding, dilation)
        hint = _forward_pd(x.shape, w_shape, g.shape, x.dtype, geometry, groups,
                           C.dnnl_forward_training)
        pd = PrimitiveDesc("convolution_backward_weights", C.dnnl_convolution_direct,
                           _ANY(x.shape, x.dtype),
                           _ANY(_weight_shape(w_shape, groups), x.dtype), None,
                           _ANY(g.shape, g.dtype), *geometry, hint)
        b.keep.append(hint)
        b.at_edges(pd, [(C.DNNL_ARG_SRC, _PLAIN(x.shape, x.dtype), C.dnnl_query_src_md),
                        (C.DNNL_ARG_DIFF_DST, _PLAIN(g.shape, g.dtype),
                         C.dnnl_query_diff_dst_md)],
                   (C.DNNL_ARG_DIFF_WEIGHTS, _PLAIN(_weight_shape(w_shape, groups), dw.dtype),
                    C.dnnl_query_diff_weights_md))

    key = ("conv2d_weight_grad", x.shape, g.shape, x.dtype, stride, padding, dilation,
           groups, tuple(kernel_size))
    cached_plan(key, build).run(x, g, dw)
    return dw
