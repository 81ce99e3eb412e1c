"""``ProgressBar``: one tqdm bar for the whole run showing the epoch and the running loss
(ours; MindSpore has none). Needs the ``tqdm`` package when the output is a terminal."""
from __future__ import annotations

import sys
import time

from .callback import Callback
from ._values import loss_value

__all__ = ["ProgressBar"]


def _is_terminal(file) -> bool:
    isatty = getattr(file, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (OSError, ValueError):  # a closed or odd stream
        return False


class ProgressBar(Callback):
    """One bar for the run (``Epoch e/N``, steps over all epochs, the last loss).

    When ``file`` (default: stderr at the start of training) is not a terminal -- a log
    file, a pipe, CI -- a bar's carriage-return redraws would only fill the log, so it writes
    one plain line per epoch instead (``Epoch 3/40: loss=0.1234 (45 steps, 1.2 s)``);
    ``plain=True``/``False`` forces either. ``leave`` keeps the finished bar on screen,
    ``disable`` writes nothing; the loss is refreshed every ``update_every`` steps.
    """

    def __init__(self, file=None, leave: bool = True, disable: bool = False,
                 update_every: int = 1, plain: bool | None = None):
        self.file, self.leave, self.disable, self.plain = file, leave, disable, plain
        self.update_every = max(1, int(update_every))
        self.bar = None
        self._out = None
        self._epochs = 0
        self._epoch_start = 0.0

    def on_train_begin(self, run_context):
        cb = run_context.original_args()
        self.close()  # a bar left open by an interrupted earlier run
        self._out = self.file if self.file is not None else sys.stderr
        self._epochs = cb.epoch_num - cb.get("cur_epoch_num", 0)
        if self.disable or self._plain():
            return
        from tqdm.auto import tqdm  # imported here: the dependency matters only when used
        batches = cb.get("batch_num")
        self.bar = tqdm(total=batches * self._epochs if batches else None, file=self._out,
                        leave=self.leave, unit="step", desc=f"Epoch 1/{cb.epoch_num}")

    def _plain(self) -> bool:
        return self.plain if self.plain is not None else not _is_terminal(self._out)

    def on_train_epoch_begin(self, run_context):
        cb = run_context.original_args()
        self._epoch_start = time.perf_counter()
        if self.bar is not None:
            self.bar.set_description(f"Epoch {cb.cur_epoch_num}/{cb.epoch_num}", refresh=False)

    def on_train_step_end(self, run_context):
        if self.bar is None:
            return
        cb = run_context.original_args()
        if cb.get("cur_step_in_epoch", 1) % self.update_every == 0:
            self.bar.set_postfix(loss=f"{loss_value(cb.net_outputs):.4g}", refresh=False)
        self.bar.update(1)

    def on_train_epoch_end(self, run_context):
        cb = run_context.original_args()
        loss = cb.get("train_loss")
        if self.bar is not None:
            if self.bar.total is None and cb.get("batch_num"):  # size known after epoch 1
                self.bar.total = cb.batch_num * self._epochs
            if loss is not None:
                self.bar.set_postfix(loss=f"{loss:.4g}", refresh=False)
        elif not self.disable and self._out is not None:
            seconds = time.perf_counter() - self._epoch_start
            loss_text = f"loss={loss:.4g} " if loss is not None else ""
            self._out.write(f"Epoch {cb.cur_epoch_num}/{cb.epoch_num}: {loss_text}"
                            f"({cb.get('cur_step_in_epoch', 0)} steps, {seconds:.1f} s)\n")
            self._out.flush()

    def on_train_end(self, run_context):
        self.close()

    def close(self) -> None:
        """End the bar now (for a run stopped by an exception, e.g. Ctrl-C, where
        ``on_train_end`` is not called); harmless when there is none."""
        if self.bar is not None:
            self.bar.close()
            self.bar = None
