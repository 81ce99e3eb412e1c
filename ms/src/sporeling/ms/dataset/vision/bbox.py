"""Transforms that move bounding boxes with the image: the ``*WithBBox`` ops and
``BoundingBoxAugment``. Boxes are an (N, 4+) float array of [x, y, width, height, ...]
rows, in pixels; extra columns (labels) pass through."""
from __future__ import annotations

import numpy as np

from sporeling.data import DataError

from ._enums import Inter
from ._util import RandomTransform, Transform, as_array, check_prob, rng
from .geometry import RandomCrop, RandomResize, RandomResizedCrop, _size, resize

__all__ = ["ResizeWithBBox", "RandomResizeWithBBox", "RandomHorizontalFlipWithBBox",
           "RandomVerticalFlipWithBBox", "RandomCropWithBBox", "RandomResizedCropWithBBox",
           "BoundingBoxAugment"]


def _boxes(bbox, op):
    bbox = np.asarray(bbox)
    if bbox.ndim != 2 or bbox.shape[1] < 4:
        raise DataError("bad bounding boxes", op=op, expected="an (N, 4+) array of "
                        "[x, y, width, height, ...]", got=bbox.shape)
    return bbox.astype(np.float32, copy=True) if bbox.dtype.kind != "f" else bbox.copy()


def _crop_boxes(boxes, left, top, w, h):
    """Boxes moved by (-left, -top), clipped to a (w, h) window; those left empty go."""
    x0 = np.clip(boxes[:, 0] - left, 0, w)
    y0 = np.clip(boxes[:, 1] - top, 0, h)
    x1 = np.clip(boxes[:, 0] + boxes[:, 2] - left, 0, w)
    y1 = np.clip(boxes[:, 1] + boxes[:, 3] - top, 0, h)
    out = boxes.copy()
    out[:, 0], out[:, 1], out[:, 2], out[:, 3] = x0, y0, x1 - x0, y1 - y0
    return out[(out[:, 2] > 0) & (out[:, 3] > 0)]


class ResizeWithBBox(Transform):
    def __init__(self, size, interpolation=Inter.LINEAR):
        self.size, self.interpolation = _size(size, "ResizeWithBBox"), Inter(interpolation)

    def __call__(self, img, bbox):
        a, boxes = as_array(img, "ResizeWithBBox"), _boxes(bbox, "ResizeWithBBox")
        h, w = a.shape[:2]
        if isinstance(self.size, int):
            s = self.size
            hw = (s, max(1, int(w * s / h))) if h <= w else (max(1, int(h * s / w)), s)
        else:
            hw = self.size
        boxes[:, [0, 2]] *= hw[1] / w
        boxes[:, [1, 3]] *= hw[0] / h
        return resize(a, hw, self.interpolation), boxes


class RandomResizeWithBBox(RandomTransform):
    def __init__(self, size):
        self.size = _size(size, "RandomResizeWithBBox")

    def __call__(self, img, bbox):
        mode = RandomResize._MODES[int(rng().integers(len(RandomResize._MODES)))]
        return ResizeWithBBox(self.size, mode)(img, bbox)


class RandomHorizontalFlipWithBBox(RandomTransform):
    def __init__(self, prob=0.5):
        self.prob = check_prob(prob, "RandomHorizontalFlipWithBBox")

    def __call__(self, img, bbox):
        a, boxes = as_array(img, "RandomHorizontalFlipWithBBox"), _boxes(bbox, "flip")
        if rng().random() >= self.prob:
            return a, boxes
        boxes[:, 0] = a.shape[1] - boxes[:, 0] - boxes[:, 2]
        return np.ascontiguousarray(a[:, ::-1]), boxes


class RandomVerticalFlipWithBBox(RandomTransform):
    def __init__(self, prob=0.5):
        self.prob = check_prob(prob, "RandomVerticalFlipWithBBox")

    def __call__(self, img, bbox):
        a, boxes = as_array(img, "RandomVerticalFlipWithBBox"), _boxes(bbox, "flip")
        if rng().random() >= self.prob:
            return a, boxes
        boxes[:, 1] = a.shape[0] - boxes[:, 1] - boxes[:, 3]
        return np.ascontiguousarray(a[::-1]), boxes


class RandomCropWithBBox(RandomCrop):
    """``RandomCrop`` whose boxes are shifted and clipped to the crop (empty ones dropped)."""

    def __call__(self, img, bbox):
        boxes = _boxes(bbox, "RandomCropWithBBox")
        a, (pad_left, pad_top) = self._padded(as_array(img, "RandomCropWithBBox"))
        boxes[:, 0] += pad_left
        boxes[:, 1] += pad_top
        top, left = self.window(*a.shape[:2])
        th, tw = self.size
        return a[top:top + th, left:left + tw], _crop_boxes(boxes, left, top, tw, th)


class RandomResizedCropWithBBox(RandomResizedCrop):
    def __call__(self, img, bbox):
        a, boxes = as_array(img, "RandomResizedCropWithBBox"), _boxes(bbox, "crop")
        top, left, ch, cw = self.box(*a.shape[:2])
        boxes = _crop_boxes(boxes, left, top, cw, ch)
        th, tw = self.size
        boxes[:, [0, 2]] *= tw / cw
        boxes[:, [1, 3]] *= th / ch
        return resize(a[top:top + ch, left:left + cw], self.size, self.interpolation), boxes


class BoundingBoxAugment(RandomTransform):
    """Apply ``transform`` to the image region of each box with probability ``ratio`` (the
    result resized back to the box when its size changed)."""

    def __init__(self, transform, ratio=0.3):
        if not callable(transform):
            raise DataError("bad transform", op="BoundingBoxAugment", expected="a callable",
                            got=type(transform).__name__)
        self.transform, self.ratio = transform, check_prob(ratio, "BoundingBoxAugment")

    def __call__(self, img, bbox):
        a, boxes = as_array(img, "BoundingBoxAugment").copy(), _boxes(bbox, "BoundingBoxAugment")
        g = rng()
        for x, y, w, h in boxes[:, :4].astype(int):
            if w <= 0 or h <= 0 or g.random() >= self.ratio:
                continue
            region = np.asarray(self.transform(a[y:y + h, x:x + w]))
            if region.shape[:2] != (h, w):
                region = resize(region, (h, w))
            a[y:y + h, x:x + w] = region.reshape(a[y:y + h, x:x + w].shape)
        return a, boxes
