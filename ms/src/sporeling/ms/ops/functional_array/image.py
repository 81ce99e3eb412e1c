"""Image functions of MindSpore r2.3 ``mindspore.ops``: padding, resizing, pixel shuffles,
col2im (sampling grids and crops are in ``grids``, boxes in ``boxes``). Built from sx ops
(Graph mode and gradients included)."""
from __future__ import annotations

import math

import numpy as np

from ._common import SporelingError, float_like, ops, tensor, tuple_of, value_of
from .nn import fold

__all__ = ["pad", "padding", "interpolate", "upsample", "pixel_shuffle", "pixel_unshuffle",
           "col2im"]


# --------------------------------------------------------------------------- padding

def _edge_pad(x, axis, before, after, mode):
    n = x.shape[axis]
    lead = (slice(None),) * axis
    parts = []
    if before:
        if mode == "replicate":
            parts.append(ops.repeat(ops.getitem(x, lead + (slice(0, 1),)), before, axis=axis))
        else:  # circular
            parts.append(ops.getitem(x, lead + (slice(n - before, n),)))
    parts.append(x)
    if after:
        if mode == "replicate":
            parts.append(ops.repeat(ops.getitem(x, lead + (slice(n - 1, n),)), after, axis=axis))
        else:
            parts.append(ops.getitem(x, lead + (slice(0, after),)))
    return ops.concat(parts, axis=axis) if len(parts) > 1 else x


def pad(input_x, padding, mode="constant", value=None):
    """Pad with flat per-side widths starting from the LAST axis: (left, right) of the last
    axis, then (top, bottom) of the one before, and so on (PyTorch's ``F.pad`` order, not
    NumPy's per-axis pairs). Negative widths crop. ``mode``: 'constant' (``value``, default
    0), 'reflect', 'replicate', 'circular'."""
    x = tensor(input_x)
    widths = [int(v) for v in (value_of(padding, "ops.pad", "padding").reshape(-1).tolist()
                               if not isinstance(padding, (tuple, list)) else padding)]
    if len(widths) % 2 or len(widths) // 2 > x.ndim:
        raise SporelingError("padding must hold (before, after) pairs for at most every axis",
                             op="ops.pad", expected=f"an even count <= {2 * x.ndim}",
                             got=tuple(widths))
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise SporelingError("unknown mode", op="ops.pad",
                             expected="'constant', 'reflect', 'replicate' or 'circular'",
                             got=repr(mode))
    if value is not None and mode != "constant":
        raise SporelingError("value is only for mode 'constant'", op="ops.pad",
                             expected="value=None", got=value)
    pairs = [(0, 0)] * x.ndim
    for i in range(len(widths) // 2):
        pairs[x.ndim - 1 - i] = (widths[2 * i], widths[2 * i + 1])
    crop = tuple(slice(max(-b, 0), x.shape[a] - max(-e, 0)) for a, (b, e) in enumerate(pairs))
    if any(b < 0 or e < 0 for b, e in pairs):
        x = ops.getitem(x, crop)
    grow = [(max(b, 0), max(e, 0)) for b, e in pairs]
    if not any(b or e for b, e in grow):
        return x
    if mode == "constant":
        return ops.pad(x, grow, mode="constant", value=0 if value is None else value)
    if mode == "reflect":
        return ops.pad(x, grow, mode="reflect")
    for axis, (b, e) in enumerate(grow):
        if b or e:
            x = _edge_pad(x, axis, b, e, mode)
    return x


def padding(x, pad_dim_size=8):
    """(..., 1) -> (..., pad_dim_size): the value first, zeros after."""
    x = tensor(x)
    if x.shape[-1] != 1 or pad_dim_size < 1:
        raise SporelingError("the last axis must be 1 and pad_dim_size positive",
                             op="ops.padding", expected="shape (..., 1), pad_dim_size >= 1",
                             got=f"shape {list(x.shape)}, pad_dim_size={pad_dim_size}")
    return ops.pad(x, [(0, 0)] * (x.ndim - 1) + [(0, int(pad_dim_size) - 1)])


# --------------------------------------------------------------------------- resizing

def _source(out, n, align_corners, scale):
    """Source coordinates of ``out`` output positions on an axis of ``n``."""
    dst = np.arange(out, dtype=np.float64)
    if align_corners:
        return dst * ((n - 1) / (out - 1) if out > 1 else 0.0)
    ratio = 1.0 / scale if scale else n / out
    return np.maximum((dst + 0.5) * ratio - 0.5, 0.0)


def _cubic_weights(t, a=-0.75):
    def near(d):
        return ((a + 2) * d - (a + 3)) * d * d + 1

    def far(d):
        return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a
    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


def _resample(x, axis, out, mode, align_corners, scale):
    n = x.shape[axis]
    if mode in ("nearest", "nearest-exact"):
        ratio = 1.0 / scale if scale else n / out
        offset = 0.5 if mode == "nearest-exact" else 0.0
        idx = np.minimum(np.floor((np.arange(out) + offset) * ratio), n - 1).astype(np.int64)
        return ops.index_select(x, tensor(idx), axis=axis)
    view = [1] * x.ndim
    view[axis] = out
    if mode == "linear":
        src = _source(out, n, align_corners, scale)
        i0 = np.minimum(np.floor(src).astype(np.int64), n - 1)
        i1 = np.minimum(i0 + 1, n - 1)
        w = (src - i0).astype(x.dtype).reshape(view)
        a = ops.index_select(x, tensor(i0), axis=axis)
        b = ops.index_select(x, tensor(i1), axis=axis)
        return a + (b - a) * tensor(w)
    # bicubic: four taps, indices clamped to the edge
    dst = np.arange(out, dtype=np.float64)
    if align_corners:
        src = dst * ((n - 1) / (out - 1) if out > 1 else 0.0)
    else:
        src = (dst + 0.5) * (1.0 / scale if scale else n / out) - 0.5
    base = np.floor(src).astype(np.int64)
    t = src - base
    total = None
    for k, w in enumerate(_cubic_weights(t)):
        idx = np.clip(base - 1 + k, 0, n - 1)
        term = ops.index_select(x, tensor(idx), axis=axis) * tensor(w.astype(x.dtype).reshape(view))
        total = term if total is None else total + term
    return total


_MODES = {"nearest": None, "nearest-exact": None, "linear": 1, "bilinear": 2, "trilinear": 3,
          "bicubic": 2, "area": None}


def interpolate(input, size=None, scale_factor=None, mode="nearest",  # noqa: A002
                align_corners=None, recompute_scale_factor=None):
    """Resize the spatial axes of (N, C, *spatial) to ``size`` or by ``scale_factor``.
    Modes: 'nearest', 'nearest-exact', 'linear' (3-d input), 'bilinear' and 'bicubic'
    (4-d), 'trilinear' (5-d), 'area' (adaptive average pooling)."""
    x = float_like(input) if mode != "nearest" else tensor(input)
    if mode not in _MODES:
        raise SporelingError("unknown mode", op="ops.interpolate", expected=sorted(_MODES),
                             got=repr(mode))
    nd = x.ndim - 2
    if _MODES[mode] is not None and _MODES[mode] != nd:
        raise SporelingError(f"mode {mode!r} takes a {_MODES[mode] + 2}-d input",
                             op="ops.interpolate", expected=f"rank {_MODES[mode] + 2}",
                             got=f"shape {list(x.shape)}")
    if align_corners and mode in ("nearest", "nearest-exact", "area"):
        raise SporelingError("align_corners only applies to linear modes", op="ops.interpolate",
                             expected="align_corners=None", got=align_corners)
    if (size is None) == (scale_factor is None):
        raise SporelingError("give exactly one of size and scale_factor", op="ops.interpolate",
                             expected="size or scale_factor", got=(size, scale_factor))
    spatial = tuple(x.shape[2:])
    if size is not None:
        out = tuple_of(size, nd, "size", "ops.interpolate")
        scales = (None,) * nd
    else:
        factors = scale_factor if isinstance(scale_factor, (tuple, list)) else (scale_factor,) * nd
        out = tuple(int(math.floor(n * float(f))) for n, f in zip(spatial, factors))
        scales = (None,) * nd if recompute_scale_factor else tuple(float(f) for f in factors)
    if mode == "area":
        from .pooling import _adaptive
        return _adaptive("ops.interpolate", x, nd, out,
                         lambda t, a: ops.mean(t, axis=a, keepdims=True))[0]
    kind = {"bilinear": "linear", "trilinear": "linear", "bicubic": "bicubic"}.get(mode, mode)
    for i in range(nd):
        if out[i] != spatial[i] or scales[i] not in (None, 1.0):
            x = _resample(x, 2 + i, out[i], kind, bool(align_corners), scales[i])
    return x


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None,  # noqa: A002
             recompute_scale_factor=None):
    """Alias of :func:`interpolate`."""
    return interpolate(input, size, scale_factor, mode, align_corners, recompute_scale_factor)


def pixel_shuffle(input, upscale_factor):  # noqa: A002
    """(*, C r^2, H, W) -> (*, C, H r, W r)."""
    x = tensor(input)
    r = int(upscale_factor)
    *lead, c, h, w = x.shape
    if c % (r * r):
        raise SporelingError("channels not divisible by upscale_factor^2",
                             op="ops.pixel_shuffle", expected=f"a multiple of {r * r}", got=c)
    lead = tuple(lead)
    y = ops.reshape(x, lead + (c // (r * r), r, r, h, w))
    k = len(lead)
    y = ops.transpose(y, tuple(range(k)) + (k, k + 3, k + 1, k + 4, k + 2))
    return ops.reshape(y, lead + (c // (r * r), h * r, w * r))


def pixel_unshuffle(input, downscale_factor):  # noqa: A002
    """(*, C, H r, W r) -> (*, C r^2, H, W)."""
    x = tensor(input)
    r = int(downscale_factor)
    *lead, c, h, w = x.shape
    if h % r or w % r:
        raise SporelingError("height and width not divisible by downscale_factor",
                             op="ops.pixel_unshuffle", expected=f"multiples of {r}", got=(h, w))
    lead = tuple(lead)
    k = len(lead)
    y = ops.reshape(x, lead + (c, h // r, r, w // r, r))
    y = ops.transpose(y, tuple(range(k)) + (k, k + 2, k + 4, k + 1, k + 3))
    return ops.reshape(y, lead + (c * r * r, h // r, w // r))


# --------------------------------------------------------------------------- blocks

def col2im(input_x, output_size, kernel_size, dilation, padding_value, stride):
    """Sum sliding blocks (N, C, kh * kw, L) into (N, C, H, W) (``fold`` with MindSpore's
    block layout)."""
    x = float_like(input_x)
    if x.ndim != 4:
        raise SporelingError("col2im takes (N, C, kh * kw, L)", op="ops.col2im",
                             expected="a 4-d input", got=f"shape {list(x.shape)}")
    n, c, k, length = x.shape
    size = tuple(int(v) for v in (value_of(output_size, "ops.col2im", "output_size")
                                  .reshape(-1).tolist()
                                  if not isinstance(output_size, (tuple, list, int))
                                  else tuple_of(output_size, 2, "output_size", "ops.col2im")))
    return fold(ops.reshape(x, (n, c * k, length)), size, kernel_size, dilation,
                padding_value, stride)
