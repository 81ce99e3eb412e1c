"""``ms.train``: ``Model``, callbacks and metrics under MindSpore 2.x's names
(``sporeling.expression.train``'s, with ``Model(amp_level=...)``); also importable from
``ms.train.callback`` and ``ms.train.metrics`` as MindSpore scripts do."""
from . import callback, metrics, serialization
from .callback import (Callback, CheckpointConfig, EarlyStopping, History, LossMonitor,
                       ModelCheckpoint, RunContext, TimeMonitor)
from .metrics import (F1, MAE, MSE, Accuracy, ConfusionMatrix, Fbeta, Loss, Metric, Precision,
                      Recall, Top1CategoricalAccuracy, Top5CategoricalAccuracy,
                      TopKCategoricalAccuracy, get_metric_fn)
from .model import Model
from .serialization import (ckpt_to_safetensors, load_checkpoint, load_param_into_net,
                            safetensors_to_ckpt, save_checkpoint)

__all__ = ["Model", "callback", "metrics", "Callback", "RunContext", "LossMonitor",
           "TimeMonitor", "ModelCheckpoint", "CheckpointConfig", "EarlyStopping", "History",
           "Metric", "Accuracy", "Loss", "MAE", "MSE", "Precision", "Recall", "Fbeta", "F1",
           "ConfusionMatrix", "TopKCategoricalAccuracy", "Top1CategoricalAccuracy",
           "Top5CategoricalAccuracy", "get_metric_fn", "serialization", "save_checkpoint",
           "load_checkpoint", "load_param_into_net", "ckpt_to_safetensors", "safetensors_to_ckpt"]
