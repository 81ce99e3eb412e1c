"""Distances between the surfaces (edges) of two segmentation masks:
``HausdorffDistance``, ``MeanSurfaceDistance`` and ``RootMeanSquareDistance``.

``update(y_pred, y, label_idx)`` takes two label images of one shape; the masks are the
pixels equal to ``label_idx`` (or the images themselves when boolean). A mask's surface is
the mask minus its binary erosion (scipy's, with the cross-shaped neighbourhood); the
distance from a surface pixel to the other surface is Euclidean, ``"chessboard"`` or
``"taxicab"``, on the pixel grid. As in MindSpore, an empty surface gives ``inf``.
"""
from __future__ import annotations

import numpy as np

from ._base import Metric, MetricError, as_array, check_choice, check_count, check_type, \
    not_updated, rearrange_inputs

__all__ = ["HausdorffDistance", "MeanSurfaceDistance", "RootMeanSquareDistance"]

_METRICS = ("euclidean", "chessboard", "taxicab")


def _masks(inputs, where: str):
    check_count(inputs, 3, f"{where}.update", "y_pred, y, label_idx")
    y_pred, y = as_array(inputs[0], where), as_array(inputs[1], where)
    label_idx = inputs[2]
    if isinstance(label_idx, bool) or not isinstance(label_idx, (int, float)):
        raise ValueError(f"For '{where}.update', label_idx (input[2]) must be int or float, "
                         f"but got {type(label_idx).__name__}.")
    if label_idx not in y_pred and label_idx not in y:
        raise ValueError(f"For '{where}.update', label_idx {label_idx} is in neither y_pred "
                         "nor y.")
    if y_pred.size == 0 or y_pred.shape != y.shape:
        raise MetricError("y_pred and y must be non-empty and of one shape",
                          op=f"{where}.update", expected=y_pred.shape, got=y.shape)
    y_pred = y_pred if y_pred.dtype == bool else y_pred == label_idx
    y = y if y.dtype == bool else y == label_idx
    return y_pred, y


def _surface(mask: np.ndarray) -> np.ndarray:
    from scipy import ndimage  # on use: importing it costs 0.27 s of `import mindspore`
    return ndimage.binary_erosion(mask) ^ mask


def _distances(from_edges: np.ndarray, to_edges: np.ndarray, metric: str) -> np.ndarray:
    """For each pixel of ``from_edges``, its distance to the nearest pixel of ``to_edges``."""
    if not from_edges.any():
        return np.array([])
    if not to_edges.any():
        return np.full(int(from_edges.sum()), np.inf)
    from scipy import ndimage
    if metric == "euclidean":
        field = ndimage.distance_transform_edt(~to_edges)
    else:
        field = ndimage.distance_transform_cdt(~to_edges, metric=metric)
    return field[from_edges]


def _crop_to_union(y_pred: np.ndarray, y: np.ndarray):
    """Both masks cut to the bounding box of their union (HausdorffDistance's ``crop``)."""
    union = y_pred | y
    if not union.any():
        return np.zeros_like(y_pred), np.zeros_like(y)
    box = tuple(slice(int(idx.min()), int(idx.max()) + 1) for idx in np.nonzero(union))
    return np.squeeze(y_pred[box]), np.squeeze(y[box])


class _SurfaceMetric(Metric):
    def __init__(self, distance_metric: str):
        super().__init__()
        self.distance_metric = check_choice("distance_metric", distance_metric, _METRICS,
                                            type(self).__name__)
        self.clear()

    def clear(self):
        self._y_pred_edges, self._y_edges, self._is_update = 0, 0, False

    @rearrange_inputs
    def update(self, *inputs):
        """``update(y_pred, y, label_idx)``."""
        y_pred, y = _masks(inputs, type(self).__name__)
        y_pred, y = self._prepare(y_pred, y)
        self._y_pred_edges, self._y_edges = _surface(y_pred), _surface(y)
        self._is_update = True

    def _prepare(self, y_pred, y):
        return y_pred, y

    def _both_ways(self):
        if not self._is_update:
            raise not_updated(type(self).__name__)
        there = _distances(self._y_pred_edges, self._y_edges, self.distance_metric)
        back = _distances(self._y_edges, self._y_pred_edges, self.distance_metric)
        return there, back


class HausdorffDistance(_SurfaceMetric):
    """The largest distance from a surface pixel of one mask to the other mask's surface,
    both ways (``directed``: from ``y_pred`` only); ``percentile`` (0..100) takes that
    percentile of the distances instead of their maximum; ``crop`` cuts both masks to the
    bounding box of their union first."""

    def __init__(self, distance_metric="euclidean", percentile=None, directed=False,
                 crop=True):
        if percentile is not None:
            check_type("percentile", percentile, (float,), "HausdorffDistance")
            if not 0 <= percentile <= 100:
                raise ValueError(f"For 'HausdorffDistance', 'percentile' must be in [0, 100], "
                                 f"but got {percentile}.")
        self.percentile = percentile
        self.directed = check_type("directed", directed, (bool,), "HausdorffDistance")
        self.crop = check_type("crop", crop, (bool,), "HausdorffDistance")
        super().__init__(distance_metric)

    def _prepare(self, y_pred, y):
        return _crop_to_union(y_pred, y) if self.crop else (y_pred, y)

    def _one_way(self, distances: np.ndarray):
        if distances.size == 0:
            return np.inf
        if not self.percentile:
            return distances.max()
        return np.percentile(distances, self.percentile)

    def eval(self):
        there, back = self._both_ways()
        if self.directed:
            return self._one_way(there)
        return max(self._one_way(there), self._one_way(back))


class MeanSurfaceDistance(_SurfaceMetric):
    """The mean distance from ``y_pred``'s surface to ``y``'s; ``symmetric``: the mean of
    that and the mean the other way."""

    def __init__(self, symmetric=False, distance_metric="euclidean"):
        self.symmetric = check_type("symmetric", symmetric, (bool,), "MeanSurfaceDistance")
        super().__init__(distance_metric)

    def eval(self):
        there, back = self._both_ways()
        if there.size == 0 or (self.symmetric and back.size == 0):
            return np.inf
        if not self.symmetric:
            return there.mean()
        return np.mean((there.mean(), back.mean()))


class RootMeanSquareDistance(_SurfaceMetric):
    """The mean squared distance from ``y_pred``'s surface to ``y``'s -- not its root, as
    MindSpore 2.10 returns it; ``symmetric``: the root of the mean of that and the mean
    squared distance the other way."""

    def __init__(self, symmetric=False, distance_metric="euclidean"):
        self.symmetric = check_type("symmetric", symmetric, (bool,), "RootMeanSquareDistance")
        super().__init__(distance_metric)

    def eval(self):
        there, back = self._both_ways()
        if there.size == 0 or (self.symmetric and back.size == 0):
            return np.inf
        if not self.symmetric:
            return (there ** 2).mean()
        return np.sqrt(np.mean(((there ** 2).mean(), (back ** 2).mean())))
