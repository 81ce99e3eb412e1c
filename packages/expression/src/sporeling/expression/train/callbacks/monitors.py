"""``LossMonitor`` and ``TimeMonitor``: print the loss and the time taken (MindSpore's)."""
from __future__ import annotations

import math
import time

from .callback import Callback
from ._values import loss_value

__all__ = ["LossMonitor", "TimeMonitor"]


class LossMonitor(Callback):
    """Print ``epoch: E step: S, loss is L`` every ``per_print_times`` steps (0: never),
    and the evaluation results at the end of an epoch when ``Model.fit`` computed them.
    A NaN or infinite loss stops training with an error, as in MindSpore."""

    def __init__(self, per_print_times: int = 1):
        if isinstance(per_print_times, bool) or not isinstance(per_print_times, int) or \
                per_print_times < 0:
            raise ValueError(f"LossMonitor: per_print_times must be an int >= 0, got "
                             f"{per_print_times!r}")
        self._per_print_times = per_print_times
        self._last_print_step = 0

    def on_train_begin(self, run_context):
        self._last_print_step = run_context.original_args().get("cur_step_num", 0)

    def on_train_step_end(self, run_context):
        cb = run_context.original_args()
        loss = loss_value(cb.net_outputs)
        step = cb.get("cur_step_in_epoch", cb.cur_step_num)
        if not math.isfinite(loss):
            raise ValueError(f"epoch: {cb.cur_epoch_num} step: {step}. Invalid loss {loss}, "
                             "terminating training.")
        if self._per_print_times and \
                cb.cur_step_num - self._last_print_step >= self._per_print_times:
            self._last_print_step = cb.cur_step_num
            print(f"epoch: {cb.cur_epoch_num} step: {step}, loss is {loss}", flush=True)

    def on_train_epoch_end(self, run_context):
        cb = run_context.original_args()
        results = cb.get("eval_results")
        if results and self._per_print_times:
            print(f"Eval result: epoch {cb.cur_epoch_num}, metrics: {results}", flush=True)


class TimeMonitor(Callback):
    """Print ``epoch time: T ms, per step time: S ms`` at each epoch's end.
    ``data_size`` overrides the steps per epoch used for the average."""

    def __init__(self, data_size: int | None = None):
        if data_size is not None and (not isinstance(data_size, int) or data_size < 1):
            raise ValueError(f"TimeMonitor: data_size must be a positive int or None, got "
                             f"{data_size!r}")
        self.data_size = data_size
        self.epoch_time = 0.0
        self._start = None

    def on_train_epoch_begin(self, run_context):
        self._start = time.perf_counter()

    def on_train_epoch_end(self, run_context):
        cb = run_context.original_args()
        self.epoch_time = (time.perf_counter() - self._start) * 1000.0
        steps = self.data_size or cb.get("cur_step_in_epoch") or cb.get("batch_num") or 1
        print(f"epoch time: {self.epoch_time:.3f} ms, per step time: "
              f"{self.epoch_time / steps:.3f} ms", flush=True)
