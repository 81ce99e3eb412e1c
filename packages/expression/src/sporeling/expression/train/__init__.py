"""Training: wrapper cells, ``Model``, callbacks and metrics (MindSpore's ``train`` API).

    >>> from sporeling.expression.train import Model, LossMonitor, Accuracy
"""
from . import callbacks, metrics
from .callbacks import (BackupAndRestore, Callback, CallbackList, CallbackParams,
                        CheckpointConfig, EarlyStopping, History, LossMonitor, ModelCheckpoint,
                        ProgressBar, RunContext, TimeMonitor)
from .cell_wrappers import TrainOneStepCell, WithEvalCell, WithLossCell
from .metrics import (F1, MAE, MSE, Accuracy, ConfusionMatrix, Fbeta, Loss, Metric, Precision,
                      Recall, Top1CategoricalAccuracy, Top5CategoricalAccuracy,
                      TopKCategoricalAccuracy, get_metric_fn)
from .model import Model

__all__ = [
    "callbacks", "metrics", "Model", "WithLossCell", "WithEvalCell", "TrainOneStepCell",
    "Callback", "CallbackList", "CallbackParams", "RunContext", "LossMonitor", "TimeMonitor",
    "ProgressBar", "CheckpointConfig", "ModelCheckpoint", "EarlyStopping", "History",
    "Metric", "Accuracy", "TopKCategoricalAccuracy", "Top1CategoricalAccuracy",
    "Top5CategoricalAccuracy", "Loss", "MAE", "MSE", "Precision", "Recall", "Fbeta", "F1",
    "ConfusionMatrix", "get_metric_fn", "BackupAndRestore",
]
