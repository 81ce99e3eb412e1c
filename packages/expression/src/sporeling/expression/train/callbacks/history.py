"""``History``: the per-epoch record of a run (MindSpore's, plus the epoch mean loss)."""
from __future__ import annotations

from .callback import Callback
from ._values import loss_value

__all__ = ["History"]


class History(Callback):
    """After training, ``epoch`` lists the epochs run and ``history`` maps names to one
    value per epoch: ``"net_output"`` (the epoch's last loss, MindSpore's key),
    ``"train_loss"`` (the epoch's mean loss) and each evaluation result of ``Model.fit``
    under its metric name."""

    def __init__(self):
        self.epoch: list[int] = []
        self.history: dict[str, list] = {}

    def on_train_begin(self, run_context):
        self.epoch = []
        self.history = {}

    def on_train_epoch_end(self, run_context):
        cb = run_context.original_args()
        self.epoch.append(cb.cur_epoch_num)
        if cb.get("net_outputs") is not None:
            self.history.setdefault("net_output", []).append(loss_value(cb.net_outputs))
        if cb.get("train_loss") is not None:
            self.history.setdefault("train_loss", []).append(cb.train_loss)
        for name, value in (cb.get("eval_results") or {}).items():
            self.history.setdefault(name, []).append(value)
