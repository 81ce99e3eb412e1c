"""Bounding-box functions of MindSpore r2.3 ``mindspore.ops`` (image functions): iou,
bounding_box_encode/decode, check_valid, with MindSpore's pixel conventions (+1 per side).
Built from sx ops (Graph mode and gradients included)."""
from __future__ import annotations

import math

import numpy as np

from ._common import SporelingError, float_like, ops, tensor

__all__ = ["iou", "bounding_box_encode", "bounding_box_decode", "check_valid"]


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
