"""Metrics by name, as ``Model(metrics={"acc", "loss"})`` takes them (MindSpore's names)."""
from __future__ import annotations

from .accuracy import (Accuracy, Top1CategoricalAccuracy, Top5CategoricalAccuracy,
                       TopKCategoricalAccuracy)
from .confusion_matrix import ConfusionMatrix
from .loss import MAE, MSE, Loss
from .metric import Metric
from .precision_recall import F1, Precision, Recall

__all__ = ["METRICS", "get_metric_fn", "get_metrics"]

METRICS = {
    "accuracy": Accuracy, "acc": Accuracy, "precision": Precision, "recall": Recall,
    "F1": F1, "f1": F1, "mae": MAE, "mse": MSE, "loss": Loss,
    "top_1_accuracy": Top1CategoricalAccuracy, "top_5_accuracy": Top5CategoricalAccuracy,
}


def get_metric_fn(name: str, *args, **kwargs) -> Metric:
    """A new metric by name (``"top_k_categorical_accuracy"`` takes ``k``)."""
    if name == "top_k_categorical_accuracy":
        return TopKCategoricalAccuracy(*args, **kwargs)
    if name == "confusion_matrix":
        return ConfusionMatrix(*args, **kwargs)
    if name not in METRICS:
        raise KeyError(f"unknown metric {name!r}; known names: {sorted(METRICS)}")
    return METRICS[name](*args, **kwargs)


def get_metrics(metrics) -> dict[str, Metric]:
    """``{name: Metric}`` from a set/list of names or a dict of Metric objects."""
    if metrics is None:
        return {}
    if isinstance(metrics, dict):
        out = {}
        for name, m in metrics.items():
            if not isinstance(m, Metric):
                raise TypeError(f"metrics[{name!r}]: expected a Metric, got "
                                f"{type(m).__name__}")
            out[name] = m
        return out
    if isinstance(metrics, str):
        metrics = [metrics]
    if isinstance(metrics, (set, frozenset, list, tuple)):
        out = {}
        for name in metrics:
            if not isinstance(name, str):
                raise TypeError(f"metrics: expected names (strings), got "
                                f"{type(name).__name__}")
            out[name] = get_metric_fn(name)
        return out
    raise TypeError(f"metrics: expected a set of names or a dict of Metric objects, got "
                    f"{type(metrics).__name__}")
