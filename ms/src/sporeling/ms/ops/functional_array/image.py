"""Image functions of MindSpore r2.3 ``mindspore.ops``: padding, resizing, pixel shuffles,
sampling grids, crops and bounding boxes. Built from sx ops (Graph mode and gradients
included)."""
from __future__ import annotations

import math

import numpy as np

from ._common import SporelingError, float_like, full_like, ops, tensor, tuple_of, value_of
from .nn import fold

__all__ = ["pad", "padding", "interpolate", "upsample", "pixel_shuffle", "pixel_unshuffle",
           "affine_grid", "grid_sample", "iou", "bounding_box_encode", "bounding_box_decode",
           "check_valid", "crop_and_resize", "col2im"]


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


# --------------------------------------------------------------------------- sampling grids

def _base(n, align_corners):
    if align_corners:
        return np.linspace(-1.0, 1.0, n) if n > 1 else np.zeros(1)
    return (np.arange(n) * 2.0 + 1.0) / n - 1.0


def affine_grid(theta, size, align_corners=False):
    """Sampling grid (N, H, W, 2) [(N, D, H, W, 3)] of affine maps ``theta`` (N, 2, 3)
    [(N, 3, 4)] over an output of ``size`` (N, C, H, W) [(N, C, D, H, W)]."""
    th = float_like(theta)
    size = tuple(int(s) for s in size)
    nd = len(size) - 2
    if nd not in (2, 3) or tuple(th.shape[1:]) != (nd, nd + 1):
        raise SporelingError("theta and size do not match", op="ops.affine_grid",
                             expected="theta (N, 2, 3) with a 4-d size or (N, 3, 4) with 5-d",
                             got=f"theta {list(th.shape)}, size {list(size)}")
    axes = [_base(n, align_corners) for n in size[2:]]       # D, H, W order
    mesh = np.meshgrid(*axes, indexing="ij")
    coords = [mesh[i] for i in reversed(range(nd))]           # x (W), y (H)[, z (D)]
    base = np.stack(coords + [np.ones_like(mesh[0])], axis=-1).reshape(-1, nd + 1)
    grid = ops.matmul(tensor(base.astype(th.dtype)), ops.transpose(th, (0, 2, 1)))
    return ops.reshape(grid, (size[0],) + size[2:] + (nd,))


def _unnormalize(coord, n, align_corners):
    if align_corners:
        return (coord + 1.0) * ((n - 1) / 2.0)
    return ((coord + 1.0) * n - 1.0) / 2.0


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros",  # noqa: A002
                align_corners=False):
    """Sample (N, C, H, W) ``input`` at the normalised (x, y) in ``grid`` (N, Ho, Wo, 2):
    'bilinear' or 'nearest', padding 'zeros' or 'border'. Differentiable in both."""
    x, g = float_like(input), float_like(grid)
    if x.ndim != 4 or g.ndim != 4 or g.shape[-1] != 2:
        raise SporelingError("grid_sample takes (N, C, H, W) and (N, Ho, Wo, 2)",
                             op="ops.grid_sample", expected="4-d input and grid",
                             got=f"input {list(x.shape)}, grid {list(g.shape)}")
    if mode not in ("bilinear", "nearest") or padding_mode not in ("zeros", "border"):
        raise SporelingError("unsupported mode", op="ops.grid_sample",
                             expected="mode 'bilinear'/'nearest', padding 'zeros'/'border'",
                             got=(mode, padding_mode))
    h, w = x.shape[2:]
    px = _unnormalize(ops.getitem(g, (Ellipsis, 0)), w, align_corners)
    py = _unnormalize(ops.getitem(g, (Ellipsis, 1)), h, align_corners)
    if padding_mode == "border":
        px, py = ops.clip(px, 0.0, float(w - 1)), ops.clip(py, 0.0, float(h - 1))
    return sample_pixels(x, px, py, mode)


def sample_pixels(x, px, py, mode="bilinear"):
    """(N, C, H, W) read at pixel coordinates ``px``, ``py`` (N, Ho, Wo); corners outside the
    image read 0. Differentiable in ``x`` and in the coordinates."""
    n, c, h, w = x.shape
    ho, wo = px.shape[1:3]
    flat = ops.reshape(x, (n, c, h * w))

    def tap(ix, iy):
        inside = ops.logical_and(ops.logical_and(ix >= 0, ix <= w - 1),
                                 ops.logical_and(iy >= 0, iy <= h - 1))
        cx = ops.cast(ops.clip(ix, 0.0, float(w - 1)), np.int64)
        cy = ops.cast(ops.clip(iy, 0.0, float(h - 1)), np.int64)
        index = ops.reshape(cy * w + cx, (n, 1, ho * wo))
        vals = ops.take_along_axis(flat, ops.broadcast_to(index, (n, c, ho * wo)), 2)
        vals = ops.reshape(vals, (n, c, ho, wo))
        return ops.where(ops.expand_dims(inside, 1), vals, full_like(vals, 0.0))

    if mode == "nearest":
        return tap(ops.round(px), ops.round(py))
    x0, y0 = ops.floor(px), ops.floor(py)
    x1, y1 = x0 + 1.0, y0 + 1.0
    wx1, wy1 = px - x0, py - y0
    wx0, wy0 = 1.0 - wx1, 1.0 - wy1
    e = lambda t: ops.expand_dims(t, 1)  # noqa: E731
    return (tap(x0, y0) * e(wx0 * wy0) + tap(x1, y0) * e(wx1 * wy0)
            + tap(x0, y1) * e(wx0 * wy1) + tap(x1, y1) * e(wx1 * wy1))


# --------------------------------------------------------------------------- boxes

def _corners(boxes):
    return [ops.getitem(boxes, (Ellipsis, i)) for i in range(4)]


def iou(anchor_boxes, gt_boxes, mode="iou"):
    """Overlaps (M, N) of ``gt_boxes`` (M, 4) with ``anchor_boxes`` (N, 4), boxes as
    (x0, y0, x1, y1); 'iof' divides by the ground-truth area. Areas count pixels, +1 per
    side, and 1e-10 guards the division, as MindSpore's IOU kernels do."""
    if mode not in ("iou", "iof"):
        raise SporelingError("unknown mode", op="ops.iou", expected="'iou' or 'iof'",
                             got=repr(mode))
    a, g = float_like(anchor_boxes), float_like(gt_boxes)
    ax0, ay0, ax1, ay1 = (ops.reshape(t, (1, -1)) for t in _corners(a))
    gx0, gy0, gx1, gy1 = (ops.reshape(t, (-1, 1)) for t in _corners(g))
    iw = ops.relu(ops.minimum(ax1, gx1) - ops.maximum(ax0, gx0) + 1.0)
    ih = ops.relu(ops.minimum(ay1, gy1) - ops.maximum(ay0, gy0) + 1.0)
    inter = iw * ih
    area_a = (ax1 - ax0 + 1.0) * (ay1 - ay0 + 1.0)
    area_g = (gx1 - gx0 + 1.0) * (gy1 - gy0 + 1.0)
    if mode == "iof":
        return inter / (area_g + 1e-10)
    return inter / (area_a + area_g - inter + 1e-10)


def _center_size(boxes):
    x0, y0, x1, y1 = _corners(boxes)
    return (x0 + x1) * 0.5, (y0 + y1) * 0.5, x1 - x0 + 1.0, y1 - y0 + 1.0


def bounding_box_encode(anchor_box, groundtruth_box, means=(0.0, 0.0, 0.0, 0.0),
                        stds=(1.0, 1.0, 1.0, 1.0)):
    """Deltas (dx, dy, dw, dh) from anchors to ground truth, normalised by means/stds."""
    px, py, pw, ph = _center_size(float_like(anchor_box))
    gx, gy, gw, gh = _center_size(float_like(groundtruth_box))
    deltas = ops.stack([(gx - px) / pw, (gy - py) / ph, ops.log(gw / pw), ops.log(gh / ph)], -1)
    return (deltas - tensor(np.asarray(means, deltas.dtype))) / tensor(np.asarray(stds,
                                                                                  deltas.dtype))


def bounding_box_decode(anchor_box, deltas, max_shape, means=(0.0, 0.0, 0.0, 0.0),
                        stds=(1.0, 1.0, 1.0, 1.0), wh_ratio_clip=0.016):
    """Boxes from anchors and deltas (the inverse of :func:`bounding_box_encode`), clipped
    to ``max_shape`` (height, width)."""
    a, d = float_like(anchor_box), float_like(deltas)
    d = d * tensor(np.asarray(stds, d.dtype)) + tensor(np.asarray(means, d.dtype))
    dx, dy, dw, dh = _corners(d)
    limit = abs(math.log(wh_ratio_clip))
    dw, dh = ops.clip(dw, -limit, limit), ops.clip(dh, -limit, limit)
    px, py, pw, ph = _center_size(a)
    gw, gh = pw * ops.exp(dw), ph * ops.exp(dh)
    gx, gy = px + pw * dx, py + ph * dy
    height, width = float(max_shape[0]), float(max_shape[1])
    x0 = ops.clip(gx - gw * 0.5 + 0.5, 0.0, width - 1)
    y0 = ops.clip(gy - gh * 0.5 + 0.5, 0.0, height - 1)
    x1 = ops.clip(gx + gw * 0.5 - 0.5, 0.0, width - 1)
    y1 = ops.clip(gy + gh * 0.5 - 0.5, 0.0, height - 1)
    return ops.stack([x0, y0, x1, y1], -1)


def check_valid(bboxes, img_metas):
    """Whether each box (x0, y0, x1, y1) lies inside the image of ``img_metas`` (height,
    width, ratio): x0, y0 >= 0 and x1 <= width * ratio - 1, y1 <= height * ratio - 1."""
    b = float_like(bboxes)
    meta = ops.cast(ops.reshape(tensor(img_metas), (-1,)), b.dtype)
    height, width, ratio = (ops.getitem(meta, i) for i in range(3))
    x0, y0, x1, y1 = _corners(b)
    return ops.logical_and(ops.logical_and(x0 >= 0, y0 >= 0),
                           ops.logical_and(x1 <= width * ratio - 1.0,
                                           y1 <= height * ratio - 1.0))


def _crop_axis(lo, hi, n, out):
    """Sample positions (K, out) along one axis of size ``n`` for normalised [lo, hi]."""
    if out == 1:
        return ops.expand_dims((lo + hi) * (0.5 * (n - 1)), 1)
    steps = tensor(np.arange(out, dtype=np.float64).astype(lo.dtype) / (out - 1))
    return ops.expand_dims(lo * (n - 1), 1) + ops.expand_dims((hi - lo) * (n - 1), 1) * steps


def crop_and_resize(image, boxes, box_indices, crop_size, method="bilinear",
                    extrapolation_value=0.0):
    """Crops of NHWC ``image`` at normalised ``boxes`` (y0, x0, y1, x1), resized to
    ``crop_size`` (TensorFlow's crop_and_resize): (K, ch, cw, C), float32 (float64 images
    stay float64). Points falling outside the image take ``extrapolation_value``.
    Differentiable in the image and the boxes."""
    if method not in ("bilinear", "nearest", "bilinear_v2"):
        raise SporelingError("unknown method", op="ops.crop_and_resize",
                             expected="'bilinear', 'nearest' or 'bilinear_v2'", got=method)
    img = float_like(image)
    bx = ops.cast(tensor(boxes), img.dtype)
    ch, cw = (int(v) for v in crop_size)
    _, h, w, _ = img.shape
    k = bx.shape[0]
    picked = ops.transpose(ops.gather(img, ops.cast(tensor(box_indices), np.int64), axis=0),
                           (0, 3, 1, 2))                           # (K, C, H, W)
    y0, x0, y1, x1 = (ops.getitem(bx, (slice(None), i)) for i in range(4))
    ys = _crop_axis(y0, y1, h, ch)                                 # (K, ch)
    xs = _crop_axis(x0, x1, w, cw)                                 # (K, cw)
    py = ops.broadcast_to(ops.expand_dims(ys, 2), (k, ch, cw))
    px = ops.broadcast_to(ops.expand_dims(xs, 1), (k, ch, cw))
    sampled = sample_pixels(picked, px, py, "nearest" if method == "nearest" else "bilinear")
    inside = ops.logical_and(ops.logical_and(py >= 0, py <= h - 1),
                             ops.logical_and(px >= 0, px <= w - 1))
    out = ops.where(ops.expand_dims(inside, 1), sampled,
                    full_like(sampled, float(extrapolation_value)))
    out = ops.transpose(out, (0, 2, 3, 1))
    return out if out.dtype == np.float64 else ops.cast(out, np.float32)


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
