"""``Precision``, ``Recall``, ``Fbeta`` and ``F1`` per class, from logits and labels.

``eval(average=False)`` gives one value per class (a class never predicted / never present
scores 0); ``eval(average=True)`` their mean (macro average).

    >>> import numpy as np
    >>> logits = np.array([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [0.3, 0.7]])
    >>> labels = np.array([0, 1, 1, 1])
    >>> Precision()(logits, labels)     # class 0: 1 of 2 right; class 1: 2 of 2
    array([0.5, 1. ])
    >>> Recall()(logits, labels)        # class 0: 1 of 1 found; class 1: 2 of 3
    array([1.        , 0.66666667])
"""
from __future__ import annotations

import numpy as np

from .metric import Metric, class_labels

__all__ = ["Precision", "Recall", "Fbeta", "F1"]


class _Counts(Metric):
    """Per-class true positives, predicted positives and actual positives."""

    def __init__(self, eval_type: str = "classification"):
        super().__init__()
        if eval_type != "classification":
            raise ValueError(f"{type(self).__name__}: only eval_type='classification' is "
                             f"supported, got {eval_type!r}")
        self.eval_type = eval_type
        self.clear()

    def clear(self):
        self._true_positives = np.zeros(0, np.int64)
        self._positives = np.zeros(0, np.int64)
        self._actual_positives = np.zeros(0, np.int64)
        self._samples_num = 0

    def update(self, *inputs):
        """``update(y_pred, y)``: logits ``(N, C)`` or classes ``(N,)``; labels ``(N,)``
        or one-hot."""
        self._check_inputs(inputs, 2)
        y_pred, y, n = class_labels(inputs[0], inputs[1], f"{type(self).__name__}.update")
        n = max(n, self._positives.shape[0])
        tp = np.bincount(y[y_pred == y], minlength=n)
        pos = np.bincount(y_pred, minlength=n)
        act = np.bincount(y, minlength=n)
        self._true_positives = _grow(self._true_positives, n) + tp
        self._positives = _grow(self._positives, n) + pos
        self._actual_positives = _grow(self._actual_positives, n) + act
        self._samples_num += y.shape[0]

    def _result(self, per_class: np.ndarray, average: bool):
        if self._samples_num == 0:
            raise self._empty()
        return float(per_class.mean()) if average else per_class


def _grow(counts: np.ndarray, n: int) -> np.ndarray:
    if counts.shape[0] == n:
        return counts
    return np.concatenate([counts, np.zeros(n - counts.shape[0], counts.dtype)])


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    return np.divide(num, den, out=np.zeros(num.shape, np.float64), where=den > 0)


class Precision(_Counts):
    """True positives over predicted positives, per class."""

    def eval(self, average: bool = False):
        return self._result(_ratio(self._true_positives, self._positives), average)


class Recall(_Counts):
    """True positives over actual positives, per class."""

    def eval(self, average: bool = False):
        return self._result(_ratio(self._true_positives, self._actual_positives), average)


class Fbeta(_Counts):
    """``(1 + beta**2) * tp / (beta**2 * actual + predicted)`` per class."""

    def __init__(self, beta: float):
        if isinstance(beta, bool) or not beta > 0:
            raise ValueError(f"Fbeta: beta must be > 0, got {beta!r}")
        self.beta = float(beta)
        super().__init__()

    def eval(self, average: bool = False):
        b2 = self.beta ** 2
        return self._result(_ratio((1.0 + b2) * self._true_positives,
                                   b2 * self._actual_positives + self._positives), average)


class F1(Fbeta):
    """The harmonic mean of precision and recall per class (``Fbeta(1)``)."""

    def __init__(self):
        super().__init__(1.0)
