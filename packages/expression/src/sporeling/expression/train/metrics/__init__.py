"""Evaluation metrics (MindSpore's ``nn.metrics``): ``clear()``, ``update(*inputs)``,
``eval()``.

    >>> import numpy as np
    >>> from sporeling.expression.train import metrics
    >>> m = metrics.get_metric_fn("acc")
    >>> m(np.array([[1.0, 0.0]]), np.array([0]))
    1.0
"""
from .accuracy import (Accuracy, Top1CategoricalAccuracy, Top5CategoricalAccuracy,
                       TopKCategoricalAccuracy)
from .confusion_matrix import ConfusionMatrix
from .loss import MAE, MSE, Loss
from .metric import Metric
from .names import METRICS, get_metric_fn, get_metrics
from .precision_recall import F1, Fbeta, Precision, Recall

__all__ = ["Metric", "Accuracy", "TopKCategoricalAccuracy", "Top1CategoricalAccuracy",
           "Top5CategoricalAccuracy", "Loss", "MAE", "MSE", "Precision", "Recall", "Fbeta",
           "F1", "ConfusionMatrix", "METRICS", "get_metric_fn", "get_metrics"]
