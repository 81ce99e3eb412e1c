"""``ms.train.metrics``: MindSpore 2.10's metrics (also ``ms.train.<Name>`` and
``ms.nn.<Name>``; scripts import them from ``mindspore.train.metrics`` too).

The classification metrics are ``sporeling.expression``'s; the others are here:
``ROC``/``auc``, ``Dice``, ``CosineSimilarity``, ``BleuScore``, ``Perplexity``,
``ConfusionMatrixMetric``, the surface distances and ``OcclusionSensitivity``. Decorate a
custom metric's ``update`` with ``rearrange_inputs`` to make ``set_indexes`` pick its inputs.
"""
from sporeling.expression.train.metrics import (F1, MAE, MSE, Accuracy, ConfusionMatrix,
                                                Fbeta, Loss, Metric, Precision, Recall,
                                                Top1CategoricalAccuracy,
                                                Top5CategoricalAccuracy,
                                                TopKCategoricalAccuracy)

from ._base import rearrange_inputs
from .confusion import ConfusionMatrixMetric
from .curves import ROC, auc
from .occlusion import OcclusionSensitivity
from .similarity import CosineSimilarity, Dice
from .surface import HausdorffDistance, MeanSurfaceDistance, RootMeanSquareDistance
from .text import BleuScore, Perplexity

__all__ = ["names", "get_metric_fn", "get_metrics", "Metric", "rearrange_inputs", "Accuracy",
           "MAE", "MSE", "Precision", "Recall", "Fbeta", "F1", "HausdorffDistance",
           "BleuScore", "CosineSimilarity", "OcclusionSensitivity", "Dice", "ROC", "auc",
           "TopKCategoricalAccuracy", "Top1CategoricalAccuracy", "Top5CategoricalAccuracy",
           "Loss", "MeanSurfaceDistance", "RootMeanSquareDistance", "Perplexity",
           "ConfusionMatrix", "ConfusionMatrixMetric"]

# MindSpore 2.10's names for get_metric_fn and Model(metrics={...})
_FACTORY = {
    "accuracy": Accuracy, "acc": Accuracy, "precision": Precision, "recall": Recall,
    "F1": F1, "dice": Dice, "roc": ROC, "auc": auc, "bleu_score": BleuScore,
    "cosine_similarity": CosineSimilarity, "occlusion_sensitivity": OcclusionSensitivity,
    "topk": TopKCategoricalAccuracy, "hausdorff_distance": HausdorffDistance,
    "top_1_accuracy": Top1CategoricalAccuracy, "top_5_accuracy": Top5CategoricalAccuracy,
    "mae": MAE, "mse": MSE, "loss": Loss, "mean_surface_distance": MeanSurfaceDistance,
    "root_mean_square_distance": RootMeanSquareDistance, "perplexity": Perplexity,
    "confusion_matrix": ConfusionMatrix, "confusion_matrix_metric": ConfusionMatrixMetric,
}


def names() -> list:
    """The metric names ``get_metric_fn`` knows, sorted."""
    return sorted(_FACTORY)


def get_metric_fn(name, *args, **kwargs):
    """A new metric by name (``names()`` lists them), built with ``args``/``kwargs``."""
    if name not in _FACTORY:
        raise KeyError(f"For 'get_metric_fn', unknown metric {name!r}; known names: "
                       f"{names()}")
    return _FACTORY[name](*args, **kwargs)


def get_metrics(metrics):
    """``{name: Metric}`` from a set of names or a dict of metrics (None stays None)."""
    if metrics is None:
        return None
    if isinstance(metrics, dict):
        for name, metric in metrics.items():
            if not isinstance(name, str) or not isinstance(metric, Metric):
                raise TypeError(f"For 'get_metrics', a dict must map names (str) to Metric "
                                f"objects, but got {type(name).__name__}: "
                                f"{type(metric).__name__}.")
        return metrics
    if isinstance(metrics, set):
        return {name: get_metric_fn(name) for name in metrics}
    raise TypeError(f"For 'get_metrics', 'metrics' must be None, a dict or a set, but got "
                    f"{type(metrics).__name__}.")
