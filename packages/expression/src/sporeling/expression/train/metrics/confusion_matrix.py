"""``ConfusionMatrix``: counts of (true class, predicted class) pairs.

Rows are true classes, columns predictions. ``normalize``: ``"no_norm"`` (counts),
``"target"`` (each row sums to 1), ``"prediction"`` (each column sums to 1), ``"all"``
(the whole matrix sums to 1); an empty row/column stays 0 rather than NaN.

    >>> import numpy as np
    >>> cm = ConfusionMatrix(num_classes=2)
    >>> cm.update(np.array([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4]]), np.array([0, 1, 1]))
    >>> cm.eval()
    array([[1., 0.],
           [1., 1.]])
"""
from __future__ import annotations

import numpy as np

from .metric import Metric, MetricError, class_labels, to_numpy

__all__ = ["ConfusionMatrix"]

_NORMALIZE = ("no_norm", "target", "prediction", "all")


class ConfusionMatrix(Metric):
    """Confusion matrix over ``num_classes`` classes. Predictions are logits ``(N, C)``
    (argmax), class indices ``(N,)``, or -- for ``num_classes == 2`` -- probabilities
    ``(N,)`` thresholded at ``threshold``."""

    def __init__(self, num_classes: int, normalize: str = "no_norm", threshold: float = 0.5):
        super().__init__()
        if isinstance(num_classes, bool) or not isinstance(num_classes, int) or \
                num_classes < 1:
            raise ValueError(f"ConfusionMatrix: num_classes must be an int >= 1, got "
                             f"{num_classes!r}")
        if normalize not in _NORMALIZE:
            raise ValueError(f"ConfusionMatrix: normalize must be one of {_NORMALIZE}, got "
                             f"{normalize!r}")
        self.num_classes, self.normalize, self.threshold = num_classes, normalize, threshold
        self.clear()

    def clear(self):
        self._matrix = np.zeros((self.num_classes, self.num_classes), np.int64)

    def update(self, *inputs):
        """``update(y_pred, y)``."""
        self._check_inputs(inputs, 2)
        y_pred = to_numpy(inputs[0])
        if y_pred.ndim <= 1 and np.issubdtype(y_pred.dtype, np.floating) and \
                self.num_classes == 2:
            y_pred = (y_pred > self.threshold).astype(np.int64)
        y_pred, y, seen = class_labels(y_pred, inputs[1], "ConfusionMatrix.update")
        if seen > self.num_classes:
            raise MetricError("a class index is out of range", op="ConfusionMatrix.update",
                              expected=f"classes < {self.num_classes}",
                              got=f"{seen} classes")
        n = self.num_classes
        self._matrix += np.bincount(y * n + y_pred, minlength=n * n).reshape(n, n)

    def eval(self) -> np.ndarray:
        m = self._matrix.astype(np.float64)
        if self.normalize == "target":
            den = m.sum(axis=1, keepdims=True)
        elif self.normalize == "prediction":
            den = m.sum(axis=0, keepdims=True)
        elif self.normalize == "all":
            den = np.full((1, 1), m.sum())
        else:
            return m
        return np.divide(m, den, out=np.zeros_like(m), where=den > 0)
