"""``ms.train``: ``Model``, callbacks and metrics under MindSpore 2.x's names
(``sporeling.expression.train``'s, with ``Model(amp_level=...)``); also importable from
``ms.train.callback`` and ``ms.train.metrics`` as MindSpore scripts do. ``export``/``load``
(MindIR) and, with the insight plugin, ``SummaryRecord``/``SummaryCollector`` are the top
level's, as in MindSpore 2.10."""

from . import callback, metrics, serialization
from .callback import (BackupAndRestore, Callback, CheckpointConfig, EarlyStopping, History,
                       LossMonitor, ModelCheckpoint, RunContext, TimeMonitor)
from .callback import (LambdaCallback, LearningRateScheduler, OnRequestExit,
                       ReduceLROnPlateau)
from .metrics import (F1, MAE, MSE, ROC, Accuracy, BleuScore, ConfusionMatrix,
                      ConfusionMatrixMetric, CosineSimilarity, Dice, Fbeta, HausdorffDistance,
                      Loss, MeanSurfaceDistance, Metric, OcclusionSensitivity, Perplexity,
                      Precision, Recall, RootMeanSquareDistance, Top1CategoricalAccuracy,
                      Top5CategoricalAccuracy, TopKCategoricalAccuracy, auc, get_metric_fn,
                      names, rearrange_inputs)
from .dataset_helper import DatasetHelper, connect_network_with_dataset, data_sink
from .checkpoint_tools import (async_ckpt_thread_status, load_checkpoint_async,
                               merge_sliced_parameter)
from ..amp import (DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager,
                   build_train_network)
from .model import Model
from .flops_collector import FlopsUtilizationCollector
from ..mindir import export, load
from .serialization import (ckpt_to_safetensors, load_checkpoint, load_param_into_net,
                            safetensors_to_ckpt, save_checkpoint)
from .distributed_checkpoint import (build_searched_strategy, get_ckpt_path_with_strategy,
                                     load_distributed_checkpoint, merge_pipeline_strategys,
                                     rank_list_for_transform, transform_checkpoint_by_rank,
                                     transform_checkpoints)
from .thor_convert import ConvertModelUtils, ConvertNetUtils
from .group_info import restore_group_info_list

__all__ = ["Model", "callback", "metrics", "Callback", "RunContext", "LossMonitor",
           "TimeMonitor", "ModelCheckpoint", "CheckpointConfig", "EarlyStopping", "History",
           "Metric", "Accuracy", "Loss", "MAE", "MSE", "Precision", "Recall", "Fbeta", "F1",
           "ConfusionMatrix", "TopKCategoricalAccuracy", "Top1CategoricalAccuracy",
           "Top5CategoricalAccuracy", "get_metric_fn", "serialization", "save_checkpoint",
           "load_checkpoint", "load_param_into_net", "ckpt_to_safetensors", "safetensors_to_ckpt",
           "BackupAndRestore", "LambdaCallback", "LearningRateScheduler", "ReduceLROnPlateau",
           "OnRequestExit", "names", "rearrange_inputs", "auc", "ROC", "Dice", "BleuScore",
           "CosineSimilarity", "Perplexity", "HausdorffDistance", "MeanSurfaceDistance",
           "RootMeanSquareDistance", "OcclusionSensitivity", "ConfusionMatrixMetric",
           "LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager",
           "build_train_network", "DatasetHelper", "connect_network_with_dataset",
           "data_sink", "load_checkpoint_async", "async_ckpt_thread_status",
           "merge_sliced_parameter", "export", "load", "FlopsUtilizationCollector",
           "build_searched_strategy", "load_distributed_checkpoint",
           "get_ckpt_path_with_strategy", "ConvertNetUtils", "ConvertModelUtils",
           "restore_group_info_list"]

from ..common.insight import insight_names  # noqa: E402
# sporeling.insight's tools, where that plugin is installed (imported on first use)
__getattr__ = insight_names("sporeling.ms.train", ("SummaryRecord", "SummaryCollector",
                                                        "SummaryLandscape"), globals())
