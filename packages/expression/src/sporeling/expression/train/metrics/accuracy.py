"""``Accuracy`` and top-k accuracy (MindSpore's names).

    >>> import numpy as np
    >>> acc = Accuracy()
    >>> acc.update(np.array([[0.2, 0.8], [0.9, 0.1], [0.3, 0.7]]), np.array([1, 0, 0]))
    >>> round(acc.eval(), 4)
    0.6667
    >>> Top1CategoricalAccuracy()(np.array([[0.2, 0.8]]), np.array([1]))
    1.0
"""
from __future__ import annotations

import numpy as np

from .metric import Metric, MetricError, class_labels, to_numpy

__all__ = ["Accuracy", "TopKCategoricalAccuracy", "Top1CategoricalAccuracy",
           "Top5CategoricalAccuracy"]


class Accuracy(Metric):
    """Fraction of samples whose predicted class (argmax of the logits, or the given class
    index) equals the label (an index or one-hot). Multilabel is not supported."""

    def __init__(self, eval_type: str = "classification"):
        super().__init__()
        if eval_type != "classification":
            raise ValueError(f"Accuracy: only eval_type='classification' is supported, got "
                             f"{eval_type!r}")
        self.eval_type = eval_type
        self.clear()

    def clear(self):
        self._correct_num = 0
        self._total_num = 0

    def update(self, *inputs):
        """``update(y_pred, y)``."""
        self._check_inputs(inputs, 2)
        y_pred, y, _ = class_labels(inputs[0], inputs[1], "Accuracy.update")
        self._correct_num += int(np.count_nonzero(y_pred == y))
        self._total_num += y.shape[0]

    def eval(self) -> float:
        if self._total_num == 0:
            raise self._empty()
        return self._correct_num / self._total_num


class TopKCategoricalAccuracy(Metric):
    """Fraction of samples whose label is among the ``k`` highest logits (ties broken by
    the lower class index)."""

    def __init__(self, k: int):
        super().__init__()
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(f"TopKCategoricalAccuracy: k must be an int >= 1, got {k!r}")
        self.k = k
        self.clear()

    def clear(self):
        self._correct_num = 0
        self._samples_num = 0

    def update(self, *inputs):
        """``update(y_pred, y)`` with logits ``(N, C)`` and labels ``(N,)`` or one-hot."""
        self._check_inputs(inputs, 2)
        name = f"{type(self).__name__}.update"
        y_pred, y = to_numpy(inputs[0]), to_numpy(inputs[1])
        if y_pred.ndim != 2:
            raise MetricError("expected logits of rank 2", op=name, expected="(N, C)",
                              got=y_pred.shape)
        if y.ndim == 2 and y.shape[-1] > 1:
            y = y.argmax(axis=-1)
        y = y.reshape(-1)
        if y.shape[0] != y_pred.shape[0]:
            raise MetricError("predictions and labels disagree in number of samples",
                              op=name, got=f"{y_pred.shape[0]} and {y.shape[0]}")
        k = min(self.k, y_pred.shape[1])
        # stable sort of -logits: among equal logits the lower index ranks first
        top = np.argsort(-y_pred, axis=1, kind="stable")[:, :k]
        self._correct_num += int(np.count_nonzero(top == y.astype(np.int64)[:, None]))
        self._samples_num += y.shape[0]

    def eval(self) -> float:
        if self._samples_num == 0:
            raise self._empty()
        return self._correct_num / self._samples_num


class Top1CategoricalAccuracy(TopKCategoricalAccuracy):
    """Top-1 accuracy (``TopKCategoricalAccuracy(1)``)."""

    def __init__(self):
        super().__init__(1)


class Top5CategoricalAccuracy(TopKCategoricalAccuracy):
    """Top-5 accuracy (``TopKCategoricalAccuracy(5)``)."""

    def __init__(self):
        super().__init__(5)
