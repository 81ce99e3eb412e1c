"""Training callbacks (MindSpore's ``train.callback``): progress, timing, checkpoints,
early stopping, history."""
from .backup import BackupAndRestore
from .callback import Callback, CallbackList, CallbackParams, RunContext
from .checkpoint import CheckpointConfig, ModelCheckpoint
from .early_stopping import EarlyStopping
from .history import History
from .monitors import LossMonitor, TimeMonitor
from .progress_bar import ProgressBar

__all__ = ["Callback", "CallbackList", "CallbackParams", "RunContext", "LossMonitor",
           "TimeMonitor", "ProgressBar", "CheckpointConfig", "ModelCheckpoint",
           "EarlyStopping", "History", "BackupAndRestore"]
