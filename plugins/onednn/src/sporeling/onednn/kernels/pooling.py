"""Pooling: max (forward with its argmax, backward from it) and average (forward, and its
transpose as the backward), NCHW.

Our ``max_pool2d`` returns each window's argmax as an int64 offset inside the window; the
forward's oneDNN workspace holds exactly that offset (kh * KW + kw, first maximum, padding
never wins) as one byte per output for windows under 256 elements. The forward converts it
into the int64 index; the backward (``max_pool2d_scatter``) converts it back into the
workspace oneDNN's backward reads, so a window's gradient goes where NumPy's would.

Where oneDNN serves plain-layout max pooling with its reference implementation
(``simple_nchw``: an AVX2 machine; 0.7 ms forward, 0.3 ms backward for the main job's
32x32x8x8), the plan pools in the channel-blocked layout instead (``nChw8c``: its JIT
kernels), reordering the image, the result and the workspace around the primitive.
"""
from __future__ import annotations

import numpy as np

from sporeling.runtime.executor import capture
from sporeling.runtime.executor.capture import RECORDING

from .. import constants as C
from ..blocking import blocked_shape, logical_shape
from ..lib import OneDnnError, dims
from ..memory import Desc
from ..layouts.probe import block_size
from ..plan import PrimitiveDesc, cached_plan
from ._serve import contiguous, onednn_kernel, output

_PLAIN = Desc.plain
_REFERENCE = ("simple", "ref")
"""Implementations (their names' prefixes) a blocked layout is tried instead of."""


def _geometry(kernel_size, stride, padding, dilation=(1, 1)):
    (pt, pb), (pl, pr) = padding
    return (dims(stride), dims(kernel_size), dims(d - 1 for d in dilation), dims((pt, pl)),
            dims((pb, pr)))


def _out_shape(x_shape, kernel, stride, padding, dilation=(1, 1)):
    return tuple(x_shape[:2]) + tuple(
        (n + lo + hi - d * (k - 1) - 1) // s + 1
        for n, k, s, (lo, hi), d in zip(x_shape[2:], kernel, stride, padding, dilation))


def _max_forward_pd(x_shape, y_shape, dtype, geometry, block=None):
    return PrimitiveDesc("pooling_forward", C.dnnl_forward_training, C.dnnl_pooling_max,
                         Desc.activation(x_shape, dtype, block),
                         Desc.activation(y_shape, dtype, block), *geometry)


def _layout(x_shape, y_shape, dtype, geometry) -> int | None:
    """The channel block to pool in: None where oneDNN pools the plain layout with a
    kernel of its own (not the reference one), or no blocked one is faster."""
    block = block_size()
    if not block or not _max_forward_pd(x_shape, y_shape, dtype, geometry).impl.startswith(
            _REFERENCE):
        return None
    blocked = _max_forward_pd(x_shape, y_shape, dtype, geometry, block).impl
    return None if blocked.startswith(_REFERENCE) else block


def _argmax_bytes(b, workspace: Desc, y_shape, block, inner, user: bool):
    """One byte per output in the results' layout (plain or ``block``), which the
    workspace (in the primitive's layout ``inner``) is or is reordered into: the caller's
    uint8 argmax (``user``) or an internal buffer our int64 argmax is converted from. A
    wider workspace (a window of 256 or more) cannot stand for an argmax: NumPy serves."""
    if workspace.nbytes != Desc.activation(y_shape, np.uint8, inner).nbytes:
        raise OneDnnError("max pooling", "workspace is not a one-byte argmax")
    wanted = Desc.activation(y_shape, np.uint8, block)
    return b.user(wanted) if user else b.internal(wanted)


def max_forward_plan(x_held, dtype, *, kernel_size, stride, padding, dilation, block=None,
                     argmax_bytes=False):
    """``(plan key, build, the results' array shape)`` of a ``max_pool2d`` (see
    :func:`max_forward`): buffers the source, the maxima and, with ``argmax_bytes``, the
    uint8 argmax (else the plan's ``extra`` holds the bytes our int64 argmax is made of)."""
    x_shape = logical_shape(x_held, block)
    y_shape = _out_shape(x_shape, kernel_size, stride, padding, dilation)

    def build(b):
        geometry = _geometry(kernel_size, stride, padding, dilation)
        inner = block or _layout(x_shape, y_shape, dtype, geometry)
        pd = _max_forward_pd(x_shape, y_shape, dtype, geometry, inner)
        if block and pd.impl.startswith(_REFERENCE):
            raise OneDnnError("max pooling", f"no blocked kernel ({pd.impl})")
        src = b.into(b.user(Desc.activation(x_shape, dtype, block)),
                     pd.md(C.dnnl_query_src_md))
        dst, back = b.out_of(pd.md(C.dnnl_query_dst_md),
                             b.user(Desc.activation(y_shape, dtype, block)))
        workspace = pd.md(C.dnnl_query_workspace_md)
        argmax = _argmax_bytes(b, workspace, y_shape, block, inner, argmax_bytes)
        ws = argmax if argmax.desc == workspace else b.internal(workspace)
        b.execute(pd, {C.DNNL_ARG_SRC: src, C.DNNL_ARG_DST: dst, C.DNNL_ARG_WORKSPACE: ws})
        back()
        if ws is not argmax:
            b.reorder(ws, argmax)
        b.extra = None if argmax_bytes else argmax.buffer.reshape(blocked_shape(y_shape, block))

    key = ("max_pool2d", x_held, dtype, kernel_size, stride, padding, dilation, block,
           argmax_bytes)
    return key, build, blocked_shape(y_shape, block)


def max_forward(backend, x, out=None, *, kernel_size, stride, padding, dilation, block=None,
                argmax_bytes: bool = False):
    """``max_pool2d`` -> ``(y, index)``, all three plain or, with ``block``, channel-blocked
    arrays (Graph mode's layout pass: an array after a convolution pools as it is). With
    ``argmax_bytes`` the index is oneDNN's workspace itself, one uint8 window offset per
    output (what only the blocked gradient reads), instead of our int64 copy of it."""
    x = contiguous(x)
    key, build, y_held = max_forward_plan(
        x.shape, x.dtype, kernel_size=kernel_size, stride=stride, padding=padding,
        dilation=dilation, block=block, argmax_bytes=argmax_bytes)
    y, index = out if out is not None else (None, None)
    y = output(backend, y, y_held, x.dtype)
    index = output(backend, index, y_held, np.uint8 if argmax_bytes else np.int64)
    plan = cached_plan(key, build)
    if argmax_bytes:
        plan.run(x, y, index)
        if RECORDING:
            capture.pure()
    else:
        plan.run(x, y)
        if RECORDING:
            capture.impure("copies the argmax")
        np.copyto(index, plan.extra, casting="unsafe")
    return y, index


def max_backward_plan(g_held, dtype, *, input_size, kernel_size, stride, padding, dilation,
                      block=None, argmax_bytes=False):
    """``(plan key, build, the result's array shape)`` of a ``max_pool2d_scatter`` (see
    :func:`max_backward`): buffers the gradient, with ``argmax_bytes`` the uint8 argmax,
    then the result (else the plan's ``extra`` takes the argmax's bytes before a run)."""
    g_shape = logical_shape(g_held, block)
    x_shape = tuple(g_shape[:2]) + tuple(input_size)

    def build(b):
        geometry = _geometry(kernel_size, stride, padding, dilation)
        inner = block or _layout(x_shape, g_shape, dtype, geometry)
        hint = _max_forward_pd(x_shape, g_shape, dtype, geometry, inner)
        pd = PrimitiveDesc("pooling_backward", C.dnnl_pooling_max,
                           Desc.activation(x_shape, dtype, inner),
                           Desc.activation(g_shape, dtype, inner), *geometry, hint)
        if block and pd.impl.startswith(_REFERENCE):
            raise OneDnnError("max pooling backward", f"no blocked kernel ({pd.impl})")
        b.keep.append(hint)
        diff_dst = b.into(b.user(Desc.activation(g_shape, dtype, block)),
                          pd.md(C.dnnl_query_diff_dst_md))
        workspace = hint.md(C.dnnl_query_workspace_md)
        argmax = _argmax_bytes(b, workspace, g_shape, block, inner, argmax_bytes)
        ws = b.into(argmax, workspace)
        diff_src, back = b.out_of(pd.md(C.dnnl_query_diff_src_md),
                                  b.user(Desc.activation(x_shape, dtype, block)))
        b.execute(pd, {C.DNNL_ARG_DIFF_DST: diff_dst, C.DNNL_ARG_DIFF_SRC: diff_src,
                       C.DNNL_ARG_WORKSPACE: ws})
        back()
        b.extra = None if argmax_bytes else argmax.buffer.reshape(g_held)

    key = ("max_pool2d_scatter", g_held, dtype, tuple(input_size), kernel_size, stride,
           padding, dilation, block, argmax_bytes)
    return key, build, blocked_shape(x_shape, block)


def max_backward(backend, g, index, out=None, *, input_size, kernel_size, stride, padding,
                 dilation, block=None):
    """``max_pool2d_scatter``: ``g`` and ``index`` plain or, with ``block``, channel-blocked,
    the result the same; a uint8 ``index`` (see :func:`max_forward`) is read as it is."""
    g = contiguous(g)
    argmax_bytes = index.dtype == np.uint8
    key, build, dx_held = max_backward_plan(
        g.shape, g.dtype, input_size=input_size, kernel_size=kernel_size, stride=stride,
        padding=padding, dilation=dilation, block=block, argmax_bytes=argmax_bytes)
    dx = output(backend, out, dx_held, g.dtype)
    plan = cached_plan(key, build)
    if argmax_bytes:
        plan.run(g, contiguous(index), dx)
        if RECORDING:
            capture.pure()
    else:
        if RECORDING:
            capture.impure("copies the argmax")
        np.copyto(plan.extra, index, casting="unsafe")
        plan.run(g, dx)
    return dx


@onednn_kernel("max_pool2d")
def max_pool2d(backend, x, out=None, *, kernel_size, stride, padding, dilation):
    return max_forward(backend, x, out, kernel_size=kernel_size, stride=stride,
                       padding=padding, dilation=dilation)


@onednn_kernel("max_pool2d_scatter")
def max_pool2d_scatter(backend, g, index, out=None, *, input_size, kernel_size, stride,
                       padding, dilation):
    return max_backward(backend, g, index, out, input_size=input_size,
                        kernel_size=kernel_size, stride=stride, padding=padding,
                        dilation=dilation)


def _avg_alg(count_include_pad):
    return C.dnnl_pooling_avg_include_padding if count_include_pad else \
        C.dnnl_pooling_avg_exclude_padding


@onednn_kernel("avg_pool2d")
def avg_pool2d(backend, x, out=None, *, kernel_size, stride, padding, count_include_pad):
    x = contiguous(x)
    y_shape = _out_shape(x.shape, kernel_size, stride, padding)
    y = output(backend, out, y_shape, x.dtype)

    def build(b):
        pd = PrimitiveDesc("pooling_forward", C.dnnl_forward_training,
                           _avg_alg(count_include_pad), _PLAIN(x.shape, x.dtype),
                           _PLAIN(y_shape, x.dtype), *_geometry(kernel_size, stride, padding))
        b.execute(pd, {C.DNNL_ARG_SRC: b.user(_PLAIN(x.shape, x.dtype)),
                       C.DNNL_ARG_DST: b.user(_PLAIN(y_shape, x.dtype))})

    cached_plan(("avg_pool2d", x.shape, x.dtype, kernel_size, stride, padding,
                 count_include_pad), build).run(x, y)
    return y


@onednn_kernel("avg_pool2d_transpose")
def avg_pool2d_transpose(backend, g, out=None, *, input_size, kernel_size, stride, padding,
                         count_include_pad):
    g = contiguous(g)
    x_shape = tuple(g.shape[:2]) + tuple(input_size)
    dx = output(backend, out, x_shape, g.dtype)

    def build(b):
        geometry = _geometry(kernel_size, stride, padding)
        alg = _avg_alg(count_include_pad)
        hint = PrimitiveDesc("pooling_forward", C.dnnl_forward_training, alg,
                             _PLAIN(x_shape, g.dtype), _PLAIN(g.shape, g.dtype), *geometry)
        pd = PrimitiveDesc("pooling_backward", alg, _PLAIN(x_shape, g.dtype),
                           _PLAIN(g.shape, g.dtype), *geometry, hint)
        b.keep.append(hint)
        b.execute(pd, {C.DNNL_ARG_DIFF_DST: b.user(_PLAIN(g.shape, g.dtype)),
                       C.DNNL_ARG_DIFF_SRC: b.user(_PLAIN(x_shape, g.dtype))})

    cached_plan(("avg_pool2d_transpose", g.shape, g.dtype, tuple(input_size), kernel_size,
                 stride, padding, count_include_pad), build).run(g, dx)
    return dx
