"""``Metric``: the base of evaluation metrics (MindSpore's ``nn.Metric``): ``clear()``,
``update(*inputs)`` once per batch, ``eval()`` for the result.

Inputs may be Tensors, NumPy arrays, lists or numbers. ``set_indexes([i, j])`` picks which
of the evaluation network's outputs ``update`` receives (in that order).
"""
from __future__ import annotations

import numpy as np

from sporeling.core import SporelingError
from sporeling.core.arguments import checked_init

__all__ = ["Metric", "MetricError", "to_numpy", "class_labels"]


class MetricError(SporelingError, ValueError):
    """Inputs a metric cannot take (shapes that disagree, class indices out of range)."""


def to_numpy(value) -> np.ndarray:
    """A Tensor/array/list/number as a NumPy array."""
    if isinstance(value, np.ndarray):
        return value
    asnumpy = getattr(value, "asnumpy", None)
    return asnumpy() if asnumpy is not None else np.asarray(value)


def class_labels(y_pred, y, where: str) -> tuple[np.ndarray, np.ndarray, int]:
    """Predicted and true class indices from logits ``(N, C)`` (or indices ``(N,)``) and
    labels ``(N,)`` (or one-hot ``(N, C)``); also the number of classes seen."""
    y_pred, y = to_numpy(y_pred), to_numpy(y)
    num_classes = y_pred.shape[-1] if y_pred.ndim >= 2 else 0
    if y_pred.ndim >= 2:
        y_pred = y_pred.reshape(-1, y_pred.shape[-1]).argmax(axis=-1)
    if y.ndim >= 2 and y.shape[-1] > 1:  # one-hot (or scores) per sample
        y = y.reshape(-1, y.shape[-1]).argmax(axis=-1)
    y_pred, y = y_pred.reshape(-1), y.reshape(-1)
    if y_pred.shape != y.shape:
        raise MetricError("predictions and labels disagree in number of samples",
                          op=where, expected="logits (N, C) or classes (N,) with labels "
                          "(N,) or one-hot (N, C)", got=f"{y_pred.shape[0]} predictions "
                          f"and {y.shape[0]} labels")
    y = y.astype(np.int64, copy=False)
    y_pred = y_pred.astype(np.int64, copy=False)
    if y.size and min(y.min(), y_pred.min()) < 0:
        raise MetricError("class indices must be >= 0", op=where,
                          got=f"min label {y.min()}, min prediction {y_pred.min()}")
    seen = max(num_classes, int(y.max()) + 1 if y.size else 0,
               int(y_pred.max()) + 1 if y_pred.size else 0)
    return y_pred, y, seen


class Metric:
    """Base class: subclasses implement ``clear``, ``update`` and ``eval``."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        init = cls.__dict__.get("__init__")
        if init is not None and cls.__module__.startswith("sporeling."):
            cls.__init__ = checked_init(init)  # bad arguments: a named error (as a Cell's)

    def __init__(self):
        self._indexes = None

    @property
    def indexes(self):
        """Which evaluation outputs ``update`` receives (None: all, in order)."""
        return self._indexes

    def set_indexes(self, indexes):
        """Feed ``update`` with outputs ``indexes`` (a list of ints) only; returns self."""
        if not isinstance(indexes, (list, tuple)) or \
                not all(isinstance(i, int) and not isinstance(i, bool) for i in indexes):
            raise TypeError(f"{type(self).__name__}.set_indexes: expected a list of ints, "
                            f"got {indexes!r}")
        self._indexes = list(indexes)
        return self

    def select(self, outputs: tuple) -> tuple:
        """The outputs this metric's ``update`` takes (after ``set_indexes``); all of them
        when ``update`` picks its own (an ``update`` marked ``rearranges_inputs``, as
        MindSpore's ``@rearrange_inputs`` decorator does)."""
        if self._indexes is None or getattr(type(self).update, "rearranges_inputs", False):
            return outputs
        return tuple(outputs[i] for i in self._indexes)

    def clear(self):  # pragma: no cover - abstract
        raise NotImplementedError

    def update(self, *inputs):  # pragma: no cover - abstract
        raise NotImplementedError

    def eval(self):  # pragma: no cover - abstract
        raise NotImplementedError

    def __call__(self, *inputs):
        """Clear, update once with ``inputs``, and evaluate."""
        self.clear()
        self.update(*inputs)
        return self.eval()

    def _check_inputs(self, inputs, count: int):
        if len(inputs) != count:
            raise MetricError("wrong number of inputs to update()",
                              op=f"{type(self).__name__}.update", expected=count,
                              got=len(inputs))

    def _empty(self):
        return RuntimeError(f"{type(self).__name__}: cannot be computed, no samples were "
                            "seen (call update() before eval())")
