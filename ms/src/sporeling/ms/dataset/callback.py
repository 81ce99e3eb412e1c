"""``DSCallback`` and ``WaitedDSCallback``: user code around a ``map``'s rows."""
from __future__ import annotations

import threading
from dataclasses import dataclass

from sporeling.data import DataError

__all__ = ["DSCallback", "WaitedDSCallback", "DSRunContext"]


@dataclass
class DSRunContext:
    """What a ``ds_*`` method receives: 1-based epoch and step numbers."""
    cur_epoch_num: int
    cur_step_num: int
    cur_step_num_in_epoch: int = 0


class DSCallback:
    """Override ``ds_begin``, ``ds_epoch_begin``, ``ds_epoch_end``, ``ds_step_begin``,
    ``ds_step_end`` (each takes a run context); step methods run every ``step_size``
    steps. Pass instances to ``map(..., callbacks=[...])``."""

    def __init__(self, step_size=1):
        if not isinstance(step_size, int) or step_size < 1:
            raise DataError("bad step_size", op="DSCallback", expected="an int >= 1",
                            got=step_size)
        self.step_size = step_size

    def ds_begin(self, ds_run_context):
        """Before the pipeline's first row."""

    def ds_epoch_begin(self, ds_run_context):
        """Before each epoch."""

    def ds_epoch_end(self, ds_run_context):
        """After each epoch."""

    def ds_step_begin(self, ds_run_context):
        """Before each step (every ``step_size``)."""

    def ds_step_end(self, ds_run_context):
        """After each step (every ``step_size``)."""

    def create_runtime_obj(self):
        """MindSpore's hook that registers the methods with its C++ runtime: here the
        callback itself."""
        return self


class WaitedDSCallback(DSCallback):
    """A dataset callback that waits for training: each dataset step (and epoch) waits
    until the training callback's ``step_end`` (``epoch_end``) of the previous one has run,
    then calls ``sync_step_begin`` (``sync_epoch_begin``). Use the same object as a
    ``map`` callback and a ``Model.train`` callback."""

    def __init__(self, step_size=1):
        super().__init__(step_size)
        self.step_event, self.epoch_event = threading.Event(), threading.Event()
        self.timeout = None

    def sync_epoch_begin(self, train_run_context, ds_run_context):
        """Called before a dataset epoch once the previous training epoch ended."""

    def sync_step_begin(self, train_run_context, ds_run_context):
        """Called before a dataset step once the previous training step ended."""

    # training side (a train Callback's methods)
    def step_end(self, run_context):
        self.train_run_context = run_context
        self.step_event.set()

    def epoch_end(self, run_context):
        self.train_epoch_run_context = run_context
        self.epoch_event.set()

    def end(self, run_context):
        self.step_event.set()
        self.epoch_event.set()

    # dataset side
    def ds_epoch_begin(self, ds_run_context):
        if ds_run_context.cur_epoch_num > 1:
            self.epoch_event.wait(self.timeout)
            self.epoch_event.clear()
            self.sync_epoch_begin(getattr(self, "train_epoch_run_context", None),
                                  ds_run_context)

    def ds_step_begin(self, ds_run_context):
        if ds_run_context.cur_step_num > self.step_size:
            self.step_event.wait(self.timeout)
            self.step_event.clear()
            self.sync_step_begin(getattr(self, "train_run_context", None), ds_run_context)
