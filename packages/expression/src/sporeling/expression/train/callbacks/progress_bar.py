"""``ProgressBar``: a tqdm bar per epoch showing the running loss (ours; MindSpore has
none). Needs the ``tqdm`` package."""
from __future__ import annotations

from .callback import Callback
from ._values import loss_value

__all__ = ["ProgressBar"]


class ProgressBar(Callback):
    """One bar per training epoch (``Epoch e/N``) with the last loss as postfix.

    ``file`` (default stderr), ``leave`` and ``disable`` are passed to ``tqdm``; the loss is
    refreshed every ``update_every`` steps to keep the per-step cost small.
    """

    def __init__(self, file=None, leave: bool = True, disable: bool = False,
                 update_every: int = 1):
        from tqdm.auto import tqdm  # imported here: the dependency matters only when used
        self._tqdm = tqdm
        self.file, self.leave, self.disable = file, leave, disable
        self.update_every = max(1, int(update_every))
        self.bar = None

    def on_train_epoch_begin(self, run_context):
        cb = run_context.original_args()
        self.bar = self._tqdm(total=cb.get("batch_num"), file=self.file, leave=self.leave,
                              disable=self.disable, unit="step",
                              desc=f"Epoch {cb.cur_epoch_num}/{cb.epoch_num}")

    def on_train_step_end(self, run_context):
        cb = run_context.original_args()
        self.bar.update(1)
        if cb.get("cur_step_in_epoch", 1) % self.update_every == 0:
            self.bar.set_postfix(loss=f"{loss_value(cb.net_outputs):.4g}", refresh=False)

    def on_train_epoch_end(self, run_context):
        cb = run_context.original_args()
        if self.bar is not None:
            if cb.get("train_loss") is not None:
                self.bar.set_postfix(loss=f"{cb.train_loss:.4g}", refresh=False)
            self.bar.close()
            self.bar = None

    def on_train_end(self, run_context):
        if self.bar is not None:  # stopped mid-epoch
            self.bar.close()
            self.bar = None
