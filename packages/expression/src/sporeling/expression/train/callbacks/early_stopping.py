"""``EarlyStopping``: stop when a monitored value stops improving (MindSpore's/Keras')."""
from __future__ import annotations

import numpy as np

from ..batches import TrainError
from .callback import Callback

__all__ = ["EarlyStopping"]


class EarlyStopping(Callback):
    """Stop training after ``patience`` epochs without improvement of ``monitor``.

    ``monitor``: ``"loss"`` (the epoch's mean training loss), ``"eval_loss"`` (the
    ``"loss"`` metric of ``Model.fit``'s evaluation) or any other evaluation metric name.
    ``mode``: ``"min"``, ``"max"`` or ``"auto"`` (max when the name contains ``"acc"``).
    An improvement must beat the best by more than ``min_delta``; ``baseline`` is a value
    to beat from the start. ``restore_best_weights`` loads the best epoch's parameters back
    into the network when stopping (or at the end of training).
    """

    def __init__(self, monitor: str = "eval_loss", patience: int = 0, verbose: bool = False,
                 mode: str = "auto", min_delta: float = 0.0, baseline: float | None = None,
                 restore_best_weights: bool = False):
        if mode not in ("auto", "min", "max"):
            raise ValueError(f"EarlyStopping: mode must be 'auto', 'min' or 'max', got "
                             f"{mode!r}")
        if not isinstance(patience, int) or patience < 0:
            raise ValueError(f"EarlyStopping: patience must be an int >= 0, got {patience!r}")
        self.monitor, self.patience, self.verbose = monitor, patience, verbose
        self.min_delta = abs(float(min_delta))
        self.maximize = mode == "max" or (mode == "auto" and "acc" in monitor)
        self.baseline = baseline
        self.restore_best_weights = restore_best_weights
        self._reset()

    def _reset(self):
        self.wait = 0
        self.stopped_epoch = 0
        self.best_epoch = 0
        self.best = -np.inf if self.maximize else np.inf
        if self.baseline is not None:
            self.best = float(self.baseline)
        self._best_weights = None

    def on_train_begin(self, run_context):
        self._reset()

    def _current(self, cb) -> float:
        if self.monitor == "loss":
            value = cb.get("train_loss")
            available = ["loss"]
        else:
            results = cb.get("eval_results") or {}
            key = "loss" if self.monitor == "eval_loss" else self.monitor
            value = results.get(key)
            available = ["loss"] + [("eval_loss" if k == "loss" else k) for k in results]
        if value is None:
            raise TrainError(f"the monitored value {self.monitor!r} is not available",
                             op="EarlyStopping", expected=f"one of {available}",
                             hint="evaluation results come from Model.fit(..., "
                             "valid_dataset=...)")
        return float(np.mean(value))

    def _improved(self, current: float) -> bool:
        if self.maximize:
            return current > self.best + self.min_delta
        return current < self.best - self.min_delta

    def on_train_epoch_end(self, run_context):
        cb = run_context.original_args()
        current = self._current(cb)
        if self._improved(current):
            self.best, self.best_epoch, self.wait = current, cb.cur_epoch_num, 0
            if self.restore_best_weights:
                self._best_weights = {p.name: p.asnumpy().copy()
                                      for p in cb.train_network.get_parameters()}
            return
        self.wait += 1
        if self.wait >= self.patience:
            self.stopped_epoch = cb.cur_epoch_num
            run_context.request_stop()

    def on_train_end(self, run_context):
        cb = run_context.original_args()
        if self.stopped_epoch and self.verbose:
            print(f"Epoch {self.stopped_epoch}: early stopping; best {self.monitor} "
                  f"{self.best} at epoch {self.best_epoch}", flush=True)
        if self.restore_best_weights and self._best_weights is not None:
            for p in cb.train_network.get_parameters():
                if p.name in self._best_weights:
                    p.set_data(self._best_weights[p.name])
