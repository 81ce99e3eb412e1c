"""``ROC`` curves (binary, or one-vs-rest per class) and ``auc``, the area under one."""
from __future__ import annotations

import numpy as np

from ._base import Metric, MetricError, as_array, check_count, check_type, not_updated, \
    rearrange_inputs

__all__ = ["ROC", "auc"]


def _binary_roc(scores: np.ndarray, target: np.ndarray, pos_label):
    """False/true positive rates and thresholds, one point per distinct score (highest
    first), after a starting point (0, 0) at threshold ``max score + 1``."""
    order = np.argsort(-scores, kind="stable")
    scores, positive = scores[order], (target[order] == pos_label).astype(np.int64)
    last_of_value = np.r_[np.nonzero(np.diff(scores))[0], scores.size - 1]
    tps = np.cumsum(positive)[last_of_value]
    fps = last_of_value + 1 - tps
    thresholds = np.r_[scores[last_of_value[0]] + 1, scores[last_of_value]]
    tps, fps = np.r_[0, tps], np.r_[0, fps]
    if fps[-1] <= 0:
        raise ValueError("For 'ROC.eval', there are no negative samples in y: the false "
                         "positive rate is undefined.")
    if tps[-1] <= 0:
        raise ValueError("For 'ROC.eval', there are no positive samples in y: the true "
                         "positive rate is undefined.")
    return fps / fps[-1], tps / tps[-1], thresholds


class ROC(Metric):
    """The ROC curve of the last ``update``. ``y_pred`` and ``y`` of one rank: a binary
    problem whose positive class is ``pos_label`` (default 1); ``y_pred`` one rank higher
    ``(N, C)``: one curve per class (one-vs-rest; ``class_num`` must be ``C``).
    ``eval()`` returns ``(fpr, tpr, thresholds)``: arrays, or lists of one per class."""

    def __init__(self, class_num=None, pos_label=None):
        super().__init__()
        if class_num is not None:
            check_type("class_num", class_num, (int,), "ROC")
        if pos_label is not None:
            check_type("pos_label", pos_label, (int,), "ROC")
        self.class_num, self.pos_label = class_num, pos_label
        self.clear()

    def clear(self):
        self.y_pred, self.y, self._is_update = 0, 0, False

    @rearrange_inputs
    def update(self, *inputs):
        """``update(y_pred, y)``: scores ``(N,)`` or ``(N, C)``, labels ``(N,)``."""
        check_count(inputs, 2, "ROC.update", "y_pred, y")
        y_pred, y = as_array(inputs[0], "ROC"), as_array(inputs[1], "ROC")
        if y_pred.ndim == y.ndim:
            if self.class_num not in (None, 1):
                raise ValueError(f"For 'ROC', y_pred and y of the same rank are a binary "
                                 f"problem: 'class_num' must be 1, but got {self.class_num}.")
            self.class_num = 1
            self.pos_label = 1 if self.pos_label is None else self.pos_label
            y_pred = y_pred.ravel()
        elif y_pred.ndim == y.ndim + 1:
            if self.pos_label is not None:
                raise ValueError("For 'ROC', with per-class scores 'pos_label' must be None "
                                 f"(each class is positive in turn), but got {self.pos_label}.")
            if self.class_num != y_pred.shape[1]:
                raise ValueError(f"For 'ROC', 'class_num' must be the number of classes of "
                                 f"y_pred ({y_pred.shape[1]}), but got {self.class_num}.")
            y_pred = y_pred.reshape(y_pred.shape[0], self.class_num)
        else:
            raise MetricError("y_pred must have the rank of y, or one more",
                              op="ROC.update", expected=f"rank {y.ndim} or {y.ndim + 1}",
                              got=f"rank {y_pred.ndim}")
        self.y_pred, self.y = y_pred, y.ravel()
        self._is_update = True

    def eval(self):
        if not self._is_update:
            raise not_updated("ROC")
        if self.class_num == 1:
            return _binary_roc(self.y_pred, self.y, self.pos_label)
        curves = [_binary_roc(self.y_pred[:, c], self.y, c) for c in range(self.class_num)]
        return tuple(list(part) for part in zip(*curves))


def _as_1d(values, name: str) -> np.ndarray:
    if values.ndim == 1 or (values.ndim == 2 and values.shape[1] == 1):
        return values.ravel()
    raise ValueError(f"For 'auc', '{name}' must be 1-D (or (N, 1)), but got shape "
                     f"{values.shape}.")


def auc(x, y, reorder=False):
    """The area under the curve through points ``(x, y)`` (trapezoidal rule); ``x`` must
    rise or fall monotonically unless ``reorder`` sorts the points by ``x`` first."""
    if not isinstance(x, np.ndarray) or not isinstance(y, np.ndarray):
        raise TypeError(f"For 'auc', 'x' and 'y' must be numpy.ndarray, but got "
                        f"{type(x).__name__} and {type(y).__name__}.")
    if x.ndim == 0 or y.ndim == 0 or x.shape[0] != y.shape[0]:
        raise ValueError(f"For 'auc', 'x' and 'y' must have the same number of points, but "
                         f"got shapes {x.shape} and {y.shape}.")
    x, y = _as_1d(x, "x"), _as_1d(y, "y")
    if x.shape[0] < 2:
        raise ValueError(f"For 'auc', at least 2 points are needed, but got {x.shape[0]}.")
    direction = 1.0
    if reorder:
        order = np.lexsort((y, x))
        x, y = x[order], y[order]
    else:
        dx = np.diff(x)
        if np.any(dx < 0):
            if not np.all(dx <= 0):
                raise ValueError(f"For 'auc', 'x' must be increasing or decreasing when "
                                 f"'reorder' is False, but got {x}.")
            direction = -1.0
    return direction * float(np.sum(np.diff(x) * (y[1:] + y[:-1]) / 2))
