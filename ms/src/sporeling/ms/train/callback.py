"""``ms.train.callback``: where MindSpore scripts import callbacks from
(``from mindspore.train.callback import LossMonitor``)."""
from sporeling.expression.train.callbacks import (Callback, CheckpointConfig, EarlyStopping,
                                                  History, LossMonitor, ModelCheckpoint,
                                                  RunContext, TimeMonitor)

__all__ = ["Callback", "RunContext", "LossMonitor", "TimeMonitor", "ModelCheckpoint",
           "CheckpointConfig", "EarlyStopping", "History"]
