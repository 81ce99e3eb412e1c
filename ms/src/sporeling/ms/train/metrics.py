"""``ms.train.metrics``: where MindSpore scripts import metrics from
(``from mindspore.train.metrics import Accuracy``)."""
from sporeling.expression.train.metrics import (F1, MAE, MSE, Accuracy, ConfusionMatrix, Fbeta,
                                                Loss, Metric, Precision, Recall,
                                                Top1CategoricalAccuracy,
                                                Top5CategoricalAccuracy,
                                                TopKCategoricalAccuracy, get_metric_fn)

__all__ = ["Metric", "Accuracy", "Loss", "MAE", "MSE", "Precision", "Recall", "Fbeta", "F1",
           "ConfusionMatrix", "TopKCategoricalAccuracy", "Top1CategoricalAccuracy",
           "Top5CategoricalAccuracy", "get_metric_fn"]
