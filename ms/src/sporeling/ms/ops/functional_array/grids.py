"""Sampling grids and crops of MindSpore r2.3 ``mindspore.ops`` (image functions):
affine_grid, grid_sample, crop_and_resize, and ``sample_pixels``, the bilinear reader they
(and deformable_conv2d) share. Built from sx ops: differentiable in the image and the
coordinates, Graph mode included."""
from __future__ import annotations

import numpy as np

from ._common import SporelingError, float_like, full_like, ops, tensor

__all__ = ["affine_grid", "grid_sample", "crop_and_resize"]


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


# --------------------------------------------------------------------------- crops

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
