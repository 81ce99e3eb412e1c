"""``deformable_conv2d`` (MindSpore r2.3 ``mindspore.ops``): each kernel tap reads the input
at its grid position plus a learnt offset (bilinear, zeros outside), optionally scaled by a
learnt mask, then the taps are contracted with the weights. Built from sx ops: Graph mode and
gradients (for the input, weights, offsets and masks) included."""
from __future__ import annotations

import numpy as np

from ._common import SporelingError, float_like, ops, tensor, tuple_of
from .grids import sample_pixels

__all__ = ["deformable_conv2d"]


def _four(value, name):
    """MindSpore passes strides/dilations as (1, 1, h, w); a pair is accepted too."""
    v = tuple(int(i) for i in ((value,) * 2 if isinstance(value, int) else value))
    if len(v) == 4:
        return v[2:]
    if len(v) != 2:
        raise SporelingError(f"bad {name}", op="ops.deformable_conv2d",
                             expected="4 ints (1, 1, h, w) or 2", got=value)
    return v


def deformable_conv2d(x, weight, offsets, kernel_size, strides, padding, bias=None,
                      dilations=(1, 1, 1, 1), groups=1, deformable_groups=1, modulated=True):
    """Deformable convolution over NCHW ``x``. ``offsets`` is (N, 3 * deformable_groups * kh
    * kw, H_out, W_out): the x offsets, then the y offsets, then the masks (used when
    ``modulated``), each ordered by deformable group, then kernel tap (row-major).
    ``strides``/``dilations``: (1, 1, h, w); ``padding``: (top, bottom, left, right)."""
    x, w, off = float_like(x), float_like(weight), float_like(offsets)
    kh, kw = tuple_of(kernel_size, 2, "kernel_size", "ops.deformable_conv2d")
    sh, sw = _four(strides, "strides")
    dh, dw = _four(dilations, "dilations")
    pad = tuple(int(p) for p in padding)
    if len(pad) != 4:
        raise SporelingError("bad padding", op="ops.deformable_conv2d",
                             expected="(top, bottom, left, right)", got=padding)
    n, cin, h, width = x.shape
    cout = w.shape[0]
    dg, k = int(deformable_groups), kh * kw
    ho = (h + pad[0] + pad[1] - dh * (kh - 1) - 1) // sh + 1
    wo = (width + pad[2] + pad[3] - dw * (kw - 1) - 1) // sw + 1
    if cin % groups or cin % dg or cout % groups or tuple(w.shape[1:]) != (cin // groups, kh, kw):
        raise SporelingError("weight does not match the input and groups",
                             op="ops.deformable_conv2d",
                             expected=f"({cout}, {cin // max(groups, 1)}, {kh}, {kw}) with groups "
                                      "and deformable_groups dividing the channels",
                             got=f"weight {list(w.shape)}, input {list(x.shape)}")
    if tuple(off.shape) != (n, 3 * dg * k, ho, wo):
        raise SporelingError("offsets have the wrong shape", op="ops.deformable_conv2d",
                             expected=f"({n}, {3 * dg * k}, {ho}, {wo})",
                             got=f"{list(off.shape)}")
    parts = ops.reshape(off, (n, 3, dg, k, ho, wo))
    base_y = (np.arange(ho) * sh - pad[0]).astype(x.dtype)[:, None]
    base_x = (np.arange(wo) * sw - pad[2]).astype(x.dtype)[None, :]
    cg = cin // dg
    taps = []
    for tap in range(k):
        i, j = divmod(tap, kw)
        groups_out = []
        for g in range(dg):
            py = tensor(base_y + i * dh) + ops.getitem(parts, (slice(None), 1, g, tap))
            px = tensor(base_x + j * dw) + ops.getitem(parts, (slice(None), 0, g, tap))
            xs = ops.getitem(x, (slice(None), slice(g * cg, (g + 1) * cg)))
            sampled = sample_pixels(xs, ops.broadcast_to(px, (n, ho, wo)),
                                    ops.broadcast_to(py, (n, ho, wo)))
            if modulated:
                sampled = sampled * ops.expand_dims(
                    ops.getitem(parts, (slice(None), 2, g, tap)), 1)
            groups_out.append(sampled)
        taps.append(ops.concat(groups_out, axis=1) if dg > 1 else groups_out[0])
    cols = ops.stack(taps, axis=2)                                   # (n, cin, k, ho, wo)
    wk = ops.reshape(w, (cout, cin // groups, k))
    og, ig = cout // groups, cin // groups
    outs = [ops.einsum("nckhw,ock->nohw",
                       ops.getitem(cols, (slice(None), slice(gi * ig, (gi + 1) * ig))),
                       ops.getitem(wk, slice(gi * og, (gi + 1) * og)))
            for gi in range(int(groups))]
    y = ops.concat(outs, axis=1) if groups > 1 else outs[0]
    if bias is not None:
        y = y + ops.reshape(float_like(bias), (-1, 1, 1))
    return y
