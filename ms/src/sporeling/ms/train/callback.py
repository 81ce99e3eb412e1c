"""``ms.train.callback``: where MindSpore scripts import callbacks from
(``from mindspore.train.callback import LossMonitor``).

``CheckpointConfig`` and ``ModelCheckpoint`` write MindSpore's formats: ``.ckpt`` by default
(``<prefix>-<epoch>_<step>.ckpt``, which MindSpore 2.10 loads), or ``format="safetensors"``;
``crc_check=True`` appends MindSpore's CRC32 trailer to ``.ckpt`` files.

``BackupAndRestore(backup_dir, save_freq="epoch", delete_checkpoint=True)`` is
``sporeling.expression``'s: besides the parameters it backs up the optimizer state, the
epoch and step, the random states and the dataset's position, so a job killed at any point
and started again ends with the weights of an uninterrupted run (its files are
safetensors; ``save_steps=n`` also backs up every ``n`` steps).
"""
from sporeling.expression.train.callbacks import (BackupAndRestore, Callback, EarlyStopping,
                                                  History, LossMonitor, RunContext,
                                                  TimeMonitor)
from sporeling.expression.train.callbacks import CheckpointConfig as _CheckpointConfig
from sporeling.expression.train.callbacks import ModelCheckpoint as _ModelCheckpoint

from .lr_callbacks import LearningRateScheduler, ReduceLROnPlateau
from .request_callbacks import LambdaCallback, OnRequestExit
from .serialization import save_checkpoint

__all__ = ["Callback", "RunContext", "LossMonitor", "TimeMonitor", "ModelCheckpoint",
           "CheckpointConfig", "EarlyStopping", "History", "BackupAndRestore",
           "LambdaCallback", "LearningRateScheduler", "ReduceLROnPlateau", "OnRequestExit"]

_FORMATS = ("ckpt", "safetensors")


class CheckpointConfig(_CheckpointConfig):
    """MindSpore 2.10's ``CheckpointConfig``: when to save, how many files to keep, and in
    which ``format`` (``"ckpt"`` or ``"safetensors"``). ``integrated_save``, ``async_save``,
    ``keep_checkpoint_per_n_minutes``, ``exception_save`` and ``remove_redundancy`` are
    accepted and change nothing here (one process, saves finish before training goes on);
    ``enc_key`` is refused (encrypted checkpoints are not supported)."""

    def __init__(self, save_checkpoint_steps=1, save_checkpoint_seconds=0,
                 keep_checkpoint_max=5, keep_checkpoint_per_n_minutes=0, integrated_save=True,
                 async_save=False, saved_network=None, append_info=None, enc_key=None,
                 enc_mode="AES-GCM", exception_save=False, crc_check=False,
                 remove_redundancy=False, format="ckpt", **kwargs):
        if format not in _FORMATS:
            raise ValueError(f"For 'CheckpointConfig', 'format' must be one of {_FORMATS}, "
                             f"but got {format!r}.")
        if not isinstance(crc_check, bool):
            raise TypeError(f"For 'CheckpointConfig', 'crc_check' must be bool, but got "
                            f"{type(crc_check).__name__}.")
        if crc_check and format != "ckpt":
            raise ValueError("For 'CheckpointConfig', 'crc_check' needs format 'ckpt'.")
        if enc_key is not None:
            raise ValueError("For 'CheckpointConfig', encrypted checkpoints (enc_key) are not "
                             "supported.")
        super().__init__(save_checkpoint_steps, save_checkpoint_seconds, keep_checkpoint_max,
                         saved_network, append_info)
        self.format, self.crc_check = format, crc_check


class ModelCheckpoint(_ModelCheckpoint):
    """MindSpore's ``ModelCheckpoint``: files ``<prefix>-<epoch>_<step>.<format>``."""

    def __init__(self, prefix="CKP", directory=None, config=None):
        super().__init__(prefix, directory, config if config is not None
                         else CheckpointConfig())

    def _format(self) -> str:
        return getattr(self._config, "format", "ckpt")

    def suffix(self) -> str:
        return "." + self._format()

    def write(self, network, path, append) -> None:
        save_checkpoint(network, path, append_dict=append, format=self._format(),
                        crc_check=getattr(self._config, "crc_check", False))
