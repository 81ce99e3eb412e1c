"""``Dice`` (overlap of two masks) and ``CosineSimilarity`` (of the rows of a matrix)."""
from __future__ import annotations

import numpy as np

from ._base import (Metric, MetricError, as_array, check_choice, check_count, check_type,
                    not_updated, rearrange_inputs)

__all__ = ["Dice", "CosineSimilarity"]


class Dice(Metric):
    """``2 * <y_pred, y> / (|y_pred|^2 + |y|^2 + smooth)`` per ``update``, averaged over the
    samples seen (MindSpore adds one coefficient per batch and divides by the number of
    samples, as it does)."""

    def __init__(self, smooth=1e-5):
        super().__init__()
        check_type("smooth", smooth, (float,), "Dice")
        if not smooth > 0:
            raise ValueError(f"For 'Dice', 'smooth' must be > 0, but got {smooth}.")
        self.smooth = smooth
        self.clear()

    def clear(self):
        """Forget what ``update`` accumulated."""
        self._dice_coeff_sum, self._samples_num = 0.0, 0

    @rearrange_inputs
    def update(self, *inputs):
        """``update(y_pred, y)``: arrays of one shape ``(N, ...)``."""
        check_count(inputs, 2, "Dice.update", "y_pred, y")
        y_pred, y = as_array(inputs[0], "Dice"), as_array(inputs[1], "Dice")
        if y_pred.shape != y.shape:
            raise MetricError("y_pred and y must have the same shape", op="Dice.update",
                              expected=y_pred.shape, got=y.shape)
        self._samples_num += y.shape[0]
        p, t = y_pred.ravel().astype(np.float64), y.ravel().astype(np.float64)
        self._dice_coeff_sum += 2 * float(p @ t) / float(p @ p + t @ t + self.smooth)

    def eval(self) -> float:
        if self._samples_num == 0:
            raise RuntimeError("Dice: no samples were seen (call update() before eval())")
        return self._dice_coeff_sum / float(self._samples_num)


class CosineSimilarity(Metric):
    """The similarity matrix of the rows of the last ``update``'s matrix: ``"cosine"``
    (rows normalised first) or ``"dot"``; ``zero_diagonal`` sets its diagonal to 0;
    ``reduction`` ``"sum"``/``"mean"`` reduce it along the last axis."""

    def __init__(self, similarity="cosine", reduction="none", zero_diagonal=True):
        super().__init__()
        self.similarity = check_choice("similarity", similarity, ("dot", "cosine"),
                                       "CosineSimilarity")
        self.reduction = check_choice("reduction", reduction, ("none", "sum", "mean"),
                                      "CosineSimilarity")
        self.zero_diagonal = check_type("zero_diagonal", zero_diagonal, (bool,),
                                        "CosineSimilarity")
        self.clear()

    def clear(self):
        self.sqr_mtx_res, self._is_update = 0, False

    @rearrange_inputs
    def update(self, inputs):
        """``update(matrix)``: ``(N, D)``; keeps its ``(N, N)`` similarity matrix."""
        data = as_array(inputs, "CosineSimilarity").astype(np.float64)
        if data.ndim != 2:
            raise MetricError("expected a matrix", op="CosineSimilarity.update",
                              expected="(N, D)", got=data.shape)
        if self.similarity == "cosine":
            data = data / np.linalg.norm(data, axis=1, keepdims=True)
        self.sqr_mtx_res = data @ data.T
        self._is_update = True

    def eval(self) -> np.ndarray:
        if not self._is_update:
            raise not_updated("CosineSimilarity")
        result = np.array(self.sqr_mtx_res)
        if self.zero_diagonal:
            np.fill_diagonal(result, 0)
        if self.reduction == "mean":
            return result.mean(axis=-1)
        if self.reduction == "sum":
            return result.sum(axis=-1)
        return result
