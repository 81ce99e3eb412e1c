"""Convolution: forward, backward-data (``conv_transpose2d``) and backward-weights
(``conv2d_weight_grad``), NCHW at the edges (or channel-blocked activations, where Graph
mode's layout pass keeps them so), the layouts inside chosen by oneDNN.

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
from ..blocking import blocked_shape, logical_shape
from ._serve import contiguous, onednn_kernel, output

_ANY, _PLAIN, _ACT = Desc.any, Desc.plain, Desc.activation


def _geometry(stride, padding, dilation):
    (pt, pb), (pl, pr) = padding
    return (dims(stride), dims(d - 1 for d in dilation), dims((pt, pl)), dims((pb, pr)))


def _weight_shape(w_shape, groups):
    o, cg, kh, kw = w_shape
    return (groups, o // groups, cg, kh, kw) if groups > 1 else tuple(w_shape)


def _forward_pd(x_shape, w_shape, y_shape, dtype, geometry, groups, prop, bias=False,
                post_ops=()):
    ws = _weight_shape(w_shape, groups)
    return PrimitiveDesc("convolution_forward", prop, C.dnnl_convolution_direct,
                         _ANY(x_shape, dtype), _ANY(ws, dtype),
                         _PLAIN(w_shape[:1], dtype) if bias else None,
                         _ANY(y_shape, dtype), *geometry, post_ops=post_ops)


def _out_hw(hw, kernel, stride, padding, dilation):
    return tuple((n + lo + hi - d * (k - 1) - 1) // s + 1
                 for n, k, s, (lo, hi), d in zip(hw, kernel, stride, padding, dilation))


def forward(backend, x, w, out=None, *, stride, padding, dilation, groups, blocks=(None, None),
            bias=None, post_ops=()):
    """``conv2d`` with its source and result plain or channel-blocked (``blocks``); with
    ``bias`` (one per output channel) added and ``post_ops`` (activations, see
    ``plan.POST_OPS``) applied to the result inside oneDNN's kernel, as it writes it."""
    x, w = contiguous(x), contiguous(w)
    x_block, y_block = blocks
    x_shape = logical_shape(x.shape, x_block)
    y_shape = x_shape[:1] + w.shape[:1] + _out_hw(x_shape[2:], w.shape[2:], stride, padding,
                                                  dilation)

    def build(b):
        geometry = _geometry(stride, padding, dilation)
        pd = _forward_pd(x_shape, w.shape, y_shape, x.dtype, geometry, groups,
                         C.dnnl_forward_training, bias is not None, post_ops)
        b.at_edges(pd, [(C.DNNL_ARG_SRC, _ACT(x_shape, x.dtype, x_block), C.dnnl_query_src_md),
                        (C.DNNL_ARG_WEIGHTS, _PLAIN(_weight_shape(w.shape, groups), w.dtype),
                         C.dnnl_query_weights_md)]
                   + ([] if bias is None else [(C.DNNL_ARG_BIAS, _PLAIN(w.shape[:1], x.dtype),
                                                None)]),
                   (C.DNNL_ARG_DST, _ACT(y_shape, x.dtype, y_block), C.dnnl_query_dst_md))

    plan = cached_plan(("conv2d", x.shape, w.shape, x.dtype, stride, padding, dilation,
                        groups, blocks, bias is not None, post_ops), build)
    y = output(backend, out, blocked_shape(y_shape, y_block), x.dtype)
    if bias is None:
        plan.run(x, w, y)
    else:
        plan.run(x, w, contiguous(bias), y)
    return y


def backward_data(backend, g, w, out=None, *, stride, padding, dilation, groups,
                  output_padding, blocks=(None, None)):
    """``conv_transpose2d`` (convolution backward-data), ``g`` and the result plain or
    channel-blocked (``blocks``)."""
    g, w = contiguous(g), contiguous(w)
    g_block, dx_block = blocks
    g_shape = logical_shape(g.shape, g_block)
    n, o, oh, ow = g_shape
    _, cg, kh, kw = w.shape
    size = tuple((m - 1) * s - lo - hi + d * (k - 1) + 1 + p
                 for m, k, s, (lo, hi), d, p in zip((oh, ow), (kh, kw), stride, padding,
                                                    dilation, output_padding))
    x_shape = (n, cg * groups) + size
    dx = output(backend, out, blocked_shape(x_shape, dx_block), g.dtype)

    def build(b):
        geometry = _geometry(stride, padding, dilation)
        hint = _forward_pd(x_shape, w.shape, g_shape, g.dtype, geometry, groups,
                           C.dnnl_forward_training)
        pd = PrimitiveDesc("convolution_backward_data", C.dnnl_convolution_direct,
                           _ANY(x_shape, g.dtype),
                           _ANY(_weight_shape(w.shape, groups), w.dtype),
                           _ANY(g_shape, g.dtype), *geometry, hint)
        b.keep.append(hint)
        b.at_edges(pd, [(C.DNNL_ARG_DIFF_DST, _ACT(g_shape, g.dtype, g_block),
                         C.dnnl_query_diff_dst_md),
                        (C.DNNL_ARG_WEIGHTS, _PLAIN(_weight_shape(w.shape, groups), w.dtype),
                         C.dnnl_query_weights_md)],
                   (C.DNNL_ARG_DIFF_SRC, _ACT(x_shape, dx.dtype, dx_block),
                    C.dnnl_query_diff_src_md))

    key = ("conv_transpose2d", g.shape, w.shape, g.dtype, stride, padding, dilation,
           groups, output_padding, blocks)
    cached_plan(key, build).run(g, w, dx)
    return dx


def backward_weights(backend, x, g, out=None, *, stride, padding, dilation, groups,
                     kernel_size, blocks=(None, None)):
    """``conv2d_weight_grad`` (convolution backward-weights), ``x`` and ``g`` plain or
    channel-blocked (``blocks``); the weight gradient is plain."""
    x, g = contiguous(x), contiguous(g)
    x_block, g_block = blocks
    x_shape, g_shape = logical_shape(x.shape, x_block), logical_shape(g.shape, g_block)
    w_shape = (g_shape[1], x_shape[1] // groups) + tuple(kernel_size)
    dw = output(backend, out, w_shape, x.dtype)

    def build(b):
        geometry = _geometry(stride, padding, dilation)
        hint = _forward_pd(x_shape, w_shape, g_shape, x.dtype, geometry, groups,
                           C.dnnl_forward_training)
        pd = PrimitiveDesc("convolution_backward_weights", C.dnnl_convolution_direct,
                           _ANY(x_shape, x.dtype),
                           _ANY(_weight_shape(w_shape, groups), x.dtype), None,
                           _ANY(g_shape, g.dtype), *geometry, hint)
        b.keep.append(hint)
        b.at_edges(pd, [(C.DNNL_ARG_SRC, _ACT(x_shape, x.dtype, x_block), C.dnnl_query_src_md),
                        (C.DNNL_ARG_DIFF_DST, _ACT(g_shape, g.dtype, g_block),
                         C.dnnl_query_diff_dst_md)],
                   (C.DNNL_ARG_DIFF_WEIGHTS, _PLAIN(_weight_shape(w_shape, groups), dw.dtype),
                    C.dnnl_query_diff_weights_md))

    key = ("conv2d_weight_grad", x.shape, g.shape, x.dtype, stride, padding, dilation,
           groups, tuple(kernel_size), blocks)
    cached_plan(key, build).run(x, g, dw)
    return dw


conv2d = onednn_kernel("conv2d")(forward)
conv_transpose2d = onednn_kernel("conv_transpose2d")(backward_data)
conv2d_weight_grad = onednn_kernel("conv2d_weight_grad")(backward_weights)
