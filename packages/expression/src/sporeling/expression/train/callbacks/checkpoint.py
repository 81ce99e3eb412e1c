"""``ModelCheckpoint`` and ``CheckpointConfig``: save the network during training.

Files are ``<prefix>-<epoch>_<step in epoch>.safetensors`` in ``directory``; only the
newest ``keep_checkpoint_max`` written by this callback are kept. As MindSpore does, when
files with the prefix already exist in the directory the prefix becomes ``prefix_1``
(``prefix_2``, ...) so an earlier run's checkpoints are not overwritten.
"""
from __future__ import annotations

import os
import time

from ...serialization import SUFFIX, save_checkpoint
from .callback import Callback

__all__ = ["CheckpointConfig", "ModelCheckpoint"]

_APPEND_INFO = ("epoch_num", "step_num")


class CheckpointConfig:
    """When to save and how many files to keep.

    Args:
        save_checkpoint_steps: save every this many steps (counted over the run).
        save_checkpoint_seconds: or, when ``save_checkpoint_steps`` is None/0, every this
            many seconds.
        keep_checkpoint_max: keep this many newest files (0 or None: keep all).
        saved_network: the Cell to save (default: the training network).
        append_info: extra entries: ``"epoch_num"``, ``"step_num"`` and/or a dict.
    """

    def __init__(self, save_checkpoint_steps: int | None = 1, save_checkpoint_seconds: float = 0,
                 keep_checkpoint_max: int | None = 5, saved_network=None, append_info=None):
        if save_checkpoint_steps is not None and (
                not isinstance(save_checkpoint_steps, int) or save_checkpoint_steps < 0):
            raise ValueError(f"CheckpointConfig: save_checkpoint_steps must be an int >= 0, "
                             f"got {save_checkpoint_steps!r}")
        if not save_checkpoint_steps and not save_checkpoint_seconds:
            raise ValueError("CheckpointConfig: set save_checkpoint_steps or "
                             "save_checkpoint_seconds")
        if keep_checkpoint_max is not None and (
                not isinstance(keep_checkpoint_max, int) or keep_checkpoint_max < 0):
            raise ValueError(f"CheckpointConfig: keep_checkpoint_max must be an int >= 0, got "
                             f"{keep_checkpoint_max!r}")
        extra = {}
        names = []
        for item in append_info or []:
            if isinstance(item, dict):
                extra.update(item)
            elif item in _APPEND_INFO:
                names.append(item)
            else:
                raise ValueError(f"CheckpointConfig: append_info items are {_APPEND_INFO} or "
                                 f"dicts, got {item!r}")
        self.save_checkpoint_steps = save_checkpoint_steps or 0
        self.save_checkpoint_seconds = float(save_checkpoint_seconds or 0)
        self.keep_checkpoint_max = keep_checkpoint_max or 0
        self.saved_network = saved_network
        self.append_info = names
        self.append_dict = extra


class ModelCheckpoint(Callback):
    """Save checkpoints as the config says, and once more at the end of training.

    A subclass changes the file format by overriding :meth:`suffix` and :meth:`write` (the
    ``sporeling.ms`` one writes MindSpore's ``.ckpt``).
    """

    def suffix(self) -> str:
        """The checkpoint files' suffix."""
        return SUFFIX

    def write(self, network, path: str, append: dict | None) -> None:
        """Write ``network``'s parameters (and ``append``'s entries) to ``path``."""
        save_checkpoint(network, path, append_dict=append)

    def __init__(self, prefix: str = "CKP", directory: str | None = None,
                 config: CheckpointConfig | None = None):
        if not isinstance(prefix, str) or not prefix or any(c in prefix for c in "/\\"):
            raise ValueError(f"ModelCheckpoint: prefix must be a file name part, got "
                             f"{prefix!r}")
        if config is not None and not isinstance(config, CheckpointConfig):
            raise TypeError(f"ModelCheckpoint: config must be a CheckpointConfig, got "
                            f"{type(config).__name__}")
        self._base_prefix = prefix
        self._prefix = prefix
        self._directory = os.path.abspath(directory or os.getcwd())
        self._config = config or CheckpointConfig()
        self._files: list[str] = []
        self._last_saved_step = 0
        self._last_time = time.monotonic()
        self._latest = None

    @property
    def latest_ckpt_file_name(self) -> str | None:
        """The path of the newest checkpoint this callback wrote."""
        return self._latest

    def _free_prefix(self) -> str:
        existing = os.listdir(self._directory)
        prefix, n = self._base_prefix, 0
        suffix = self.suffix()
        while any(f.startswith(prefix + "-") and f.endswith(suffix) for f in existing):
            n += 1
            prefix = f"{self._base_prefix}_{n}"
        return prefix

    def on_train_begin(self, run_context):
        os.makedirs(self._directory, exist_ok=True)
        self._prefix = self._free_prefix()
        self._files, self._last_saved_step = [], 0
        self._last_time = time.monotonic()

    def on_train_step_end(self, run_context):
        cb = run_context.original_args()
        cfg = self._config
        if cfg.save_checkpoint_steps:
            due = cb.cur_step_num - self._last_saved_step >= cfg.save_checkpoint_steps
        else:
            due = time.monotonic() - self._last_time >= cfg.save_checkpoint_seconds
        if due:
            self._save(cb)

    def on_train_end(self, run_context):
        cb = run_context.original_args()
        if cb.get("cur_step_num", 0) and cb.cur_step_num != self._last_saved_step:
            self._save(cb)

    def _save(self, cb) -> None:
        cfg = self._config
        step_in_epoch = cb.get("cur_step_in_epoch", cb.cur_step_num)
        path = os.path.join(self._directory,
                            f"{self._prefix}-{cb.cur_epoch_num}_{step_in_epoch}"
                            f"{self.suffix()}")
        append = dict(cfg.append_dict)
        if "epoch_num" in cfg.append_info:
            append["epoch_num"] = int(cb.cur_epoch_num)
        if "step_num" in cfg.append_info:
            append["step_num"] = int(cb.cur_step_num)
        network = cfg.saved_network if cfg.saved_network is not None else cb.train_network
        self.write(network, path, append or None)
        self._last_saved_step = cb.cur_step_num
        self._last_time = time.monotonic()
        self._latest = path
        if path in self._files:
            self._files.remove(path)
        self._files.append(path)
        keep = cfg.keep_checkpoint_max
        while keep and len(self._files) > keep:
            old = self._files.pop(0)
            try:
                os.remove(old)
            except FileNotFoundError:
                pass
