"""``Loss`` (the mean of per-batch losses) and the regression errors ``MAE``, ``MSE``.

    >>> import numpy as np
    >>> m = Loss()
    >>> m.update(np.float32(0.5)); m.update(np.array([1.0, 2.0]))
    >>> m.eval()  # batches 0.5 and mean(1, 2) = 1.5
    1.0
    >>> MAE()(np.array([1.0, 2.0]), np.array([2.0, 2.0]))
    0.5
"""
from __future__ import annotations

import numpy as np

from .metric import Metric, MetricError, to_numpy

__all__ = ["Loss", "MAE", "MSE"]


class Loss(Metric):
    """Average of the losses given to ``update`` (a scalar, or a 1-D batch averaged first),
    each batch weighing one, as MindSpore's."""

    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self):
        self._sum_loss = 0.0
        self._total_num = 0

    def update(self, *inputs):
        """``update(loss)``."""
        self._check_inputs(inputs, 1)
        loss = to_numpy(inputs[0])
        if loss.ndim > 1:
            raise MetricError("expected a scalar loss or a 1-D batch of losses",
                              op="Loss.update", got=f"shape {loss.shape}")
        self._sum_loss += float(np.mean(loss, dtype=np.float64))
        self._total_num += 1

    def eval(self) -> float:
        if self._total_num == 0:
            raise self._empty()
        return self._sum_loss / self._total_num


class _Regression(Metric):
    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self):
        self._abs_error_sum = 0.0
        self._samples_num = 0

    def update(self, *inputs):
        """``update(y_pred, y)``: arrays of one shape (or broadcastable to it)."""
        self._check_inputs(inputs, 2)
        y_pred = to_numpy(inputs[0]).astype(np.float64)
        y = to_numpy(inputs[1]).astype(np.float64)
        if y.size == y_pred.size:
            y = y.reshape(y_pred.shape)
        diff = y_pred - y
        self._abs_error_sum += float(self._error(diff).sum())
        self._samples_num += y_pred.shape[0] if y_pred.ndim else 1

    def eval(self) -> float:
        if self._samples_num == 0:
            raise self._empty()
        return self._abs_error_sum / self._samples_num


class MAE(_Regression):
    """Mean absolute error (summed over features, averaged over samples, as MindSpore)."""

    @staticmethod
    def _error(diff):
        return np.abs(diff)


class MSE(_Regression):
    """Mean squared error (summed over features, averaged over samples, as MindSpore)."""

    @staticmethod
    def _error(diff):
        return diff * diff
