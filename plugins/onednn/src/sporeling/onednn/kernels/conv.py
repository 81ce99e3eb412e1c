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

from sporeling.runtime.executor import capture
from sporeling.runtime.executor.capture import RECORDING

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


def forward_plan(x_held, w_shape, dtype, *, stride, padding, dilation, groups,
                 blocks=(None, None), bias=False, post_ops=()):
    """``(plan key, build, the result's array shape)`` of a ``conv2d`` on a source held as
    ``x_held`` (plain or channel-blocked, ``blocks``): the plan's buffers are the source,
    the weight, the bias (with ``bias``) and the result, in that order."""
    x_block, y_block = blocks
    x_shape = logical_shape(x_held, x_block)
    y_shape = x_shape[:1] + w_shape[:1] + _out_hw(x_shape[2:], w_shape[2:], stride, padding,
                                                  dilation)

    def build(b):
        geometry = _geometry(stride, padding, dilation)
        pd = _forward_pd(x_shape, w_shape, y_shape, dtype, geometry, groups,
                         C.dnnl_forward_training, bias, post_ops)
        b.at_edges(pd, [(C.DNNL_ARG_SRC, _ACT(x_shape, dtype, x_block), C.dnnl_query_src_md),
                        (C.DNNL_ARG_WEIGHTS, _PLAIN(_weight_shape(w_shape, groups), dtype),
                         C.dnnl_query_weights_md)]
                   + ([(C.DNNL_ARG_BIAS, _PLAIN(w_shape[:1], dtype), None)] if bias else []),
                   (C.DNNL_ARG_DST, _ACT(y_shape, dtype, y_block), C.dnnl_query_dst_md))

    key = ("conv2d", x_held, w_shape, dtype, stride, padding, dilation, groups, blocks, bias,
           post_ops)
    return key, build, blocked_shape(y_shape, y_block)


def forward(backend, x, w, out=None, *, stride, padding, dilation, groups, blocks=(None, None),
            bias=None, post_ops=()):
    """``conv2d`` with its source and result plain or channel-blocked (``blocks``); with
    ``bias`` (one per output channel) added and ``post_ops`` (activations, see
    ``plan.POST_OPS``) applied to the result inside oneDNN's kernel, as it writes it."""
    x, w = contiguous(x), contiguous(w)
    key, build, y_held = forward_plan(x.shape, w.shape, x.dtype, stride=stride,
                                      padding=padding, dilation=dilation, groups=groups,
                                      blocks=blocks, bias=bias is not None, post_ops=post_ops)
    plan = cached_plan(key, build)
    y = output(backend, out, y_held, x.dtype)
    if bias is None:
        plan.run(x, w, y)
    else:
        plan.run(x, w, contiguous(bias), y)
    if RECORDING:
        capture.pure()
    return y


def backward_data_plan(g_held, w_shape, dtype, *, stride, padding, dilation, groups,
                       output_padding, blocks=(None, None)):
    """``(plan key, build, the result's array shape)`` of a ``conv_transpose2d``: buffers
    the gradient, the weight, the result."""
    g_block, dx_block = blocks
    g_shape = logical_shape(g_held, g_block)
    n, o, oh, ow = g_shape
    _, cg, kh, kw = w_shape
    size = tuple((m - 1) * s - lo - hi + d * (k - 1) + 1 + p
                 for m, k, s, (lo, hi), d, p in zip((oh, ow), (kh, kw), stride, padding,
                                                    dilation, output_padding))
    x_shape = (n, cg * groups) + size

    def build(b):
        geometry = _geometry(stride, padding, dilation)
        hint = _forward_pd(x_shape, w_shape, g_shape, dtype, geometry, groups,
                           C.dnnl_forward_training)
        pd = PrimitiveDesc("convolution_backward_data", C.dnnl_convolution_direct,
                           _ANY(x_shape, dtype), _ANY(_weight_shape(w_shape, groups), dtype),
                           _ANY(g_shape, dtype), *geometry, hint)
        b.keep.append(hint)
        b.at_edges(pd, [(C.DNNL_ARG_DIFF_DST, _ACT(g_shape, dtype, g_block),
                         C.dnnl_query_diff_dst_md),
                        (C.DNNL_ARG_WEIGHTS, _PLAIN(_weight_shape(w_shape, groups), dtype),
                         C.dnnl_query_weights_md)],
                   (C.DNNL_ARG_DIFF_SRC, _ACT(x_shape, dtype, dx_block),
                    C.dnnl_query_diff_src_md))

    key = ("conv_transpose2d", g_held, w_shape, dtype, stride, padding, dilation, groups,
           output_padding, blocks)
    return key, build, blocked_shape(x_shape, dx_block)


def backward_data(backend, g, w, out=None, *, stride, padding, dilation, groups,
                  output_padding, blocks=(None, None)):
    """``conv_transpose2d`` (convolution backward-data), ``g`` and the result plain or
    channel-blocked (``blocks``)."""
    g, w = contiguous(g), contiguous(w)
    key, build, dx_held = backward_data_plan(
        g.shape, w.shape, g.dtype, stride=stride, padding=padding, dilation=dilation,
        groups=groups, output_padding=output_padding, blocks=blocks)
    dx = output(backend, out, dx_held, g.dtype)
    cached_plan(key, build).run(g, w, dx)
    if RECORDING:
        capture.pure()
    return dx


def backward_weights_plan(x_held, g_held, dtype, *, stride, padding, dilation, groups,
                          kernel_size, blocks=(None, None)):
    """``(plan key, build, the result's shape)`` of a ``conv2d_weight_grad``: buffers the
    source, the gradient, the (plain) weight gradient."""
    x_block, g_block = blocks
    x_shape, g_shape = logical_shape(x_held, x_block), logical_shape(g_held, g_block)
    w_shape = (g_shape[1], x_shape[1] // groups) + tuple(kernel_size)

    def build(b):
        geometry = _geometry(stride, padding, dilation)
        hint = _forward_pd(x_shape, w_shape, g_shape, dtype, geometry, groups,
                           C.dnnl_forward_training)
        pd = PrimitiveDesc("convolution_backward_weights", C.dnnl_convolution_direct,
                           _ANY(x_shape, dtype), _ANY(_weight_shape(w_shape, groups), dtype),
                           None, _ANY(g_shape, dtype), *geometry, hint)
        b.keep.append(hint)
        b.at_edges(pd, [(C.DNNL_ARG_SRC, _ACT(x_shape, dtype, x_block), C.dnnl_query_src_md),
                        (C.DNNL_ARG_DIFF_DST, _ACT(g_shape, dtype, g_block),
                         C.dnnl_query_diff_dst_md)],
                   (C.DNNL_ARG_DIFF_WEIGHTS, _PLAIN(_weight_shape(w_shape, groups), dtype),
                    C.dnnl_query_diff_weights_md))

    key = ("conv2d_weight_grad", x_held, g_held, dtype, stride, padding, dilation, groups,
           tuple(kernel_size), blocks)
    return key, build, w_shape


def backward_weights(backend, x, g, out=None, *, stride, padding, dilation, groups,
                     kernel_size, blocks=(None, None)):
    """``conv2d_weight_grad`` (convolution backward-weights), ``x`` and ``g`` plain or
    channel-blocked (``blocks``); the weight gradient is plain."""
    x, g = contiguous(x), contiguous(g)
    key, build, w_shape = backward_weights_plan(
        x.shape, g.shape, x.dtype, stride=stride, padding=padding, dilation=dilation,
        groups=groups, kernel_size=kernel_size, blocks=blocks)
    dw = output(backend, out, w_shape, x.dtype)
    cached_plan(key, build).run(x, g, dw)
    if RECORDING:
        capture.pure()
    return dw


conv2d = onednn_kernel("conv2d")(forward)
conv_transpose2d = onednn_kernel("conv_transpose2d")(backward_data)
conv2d_weight_grad = onednn_kernel("conv2d_weight_grad")(backward_weights)
