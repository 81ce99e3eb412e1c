"""``Callback``, ``RunContext`` and the parameters callbacks see (MindSpore's API).

A callback overrides any of ``on_train_begin``, ``on_train_epoch_begin``,
``on_train_step_begin``, ``on_train_step_end``, ``on_train_epoch_end``, ``on_train_end``
(and the ``on_eval_*`` counterparts). As in MindSpore, the ``on_train_*`` methods call the
older names ``begin``/``epoch_begin``/``step_begin``/``step_end``/``epoch_end``/``end`` by
default, so callbacks written either way work. ``run_context.original_args()`` gives the
parameters (``cur_epoch_num``, ``cur_step_num``, ``batch_num``, ``net_outputs``,
``train_network``, ``optimizer``, ...); ``run_context.request_stop()`` ends training after
the current step.
"""
from __future__ import annotations

__all__ = ["Callback", "RunContext", "CallbackParams", "CallbackList"]


class CallbackParams(dict):
    """A dict whose keys read and write as attributes (``cb_params.cur_epoch_num``).

    Keys set by ``Model``: ``train_network``, ``network``, ``optimizer``, ``loss_fn``,
    ``epoch_num``, ``batch_num`` (None until known), ``cur_epoch_num``, ``cur_step_num``
    (counted over the whole run, from 1), ``cur_step_in_epoch`` (ours, from 1),
    ``net_outputs`` (the last loss), ``train_dataset``, ``mode`` ("train"/"eval"),
    ``train_loss`` (ours: the mean loss of the epoch, set at its end), ``eval_results``
    (``Model.fit``), ``list_callback``, ``dataset_sink_mode``.

    ``on_train_begin`` may move ``cur_epoch_num``, ``cur_step_in_epoch`` and
    ``cur_step_num`` to resume a run (``BackupAndRestore`` does): training goes on after
    step ``cur_step_in_epoch`` of epoch ``cur_epoch_num`` (0: after that whole epoch),
    skipping the batches before it.
    """

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"callback parameters have no {name!r}; present: "
                                 f"{sorted(self)}") from None

    def __setattr__(self, name, value):
        self[name] = value


class RunContext:
    """What callbacks receive: the parameters and a way to stop the run."""

    def __init__(self, original_args: CallbackParams):
        if not isinstance(original_args, dict):
            raise TypeError(f"RunContext: expected a dict of parameters, got "
                            f"{type(original_args).__name__}")
        self._original_args = original_args
        self._stop_requested = False

    def original_args(self) -> CallbackParams:
        """The callback parameters."""
        return self._original_args

    def request_stop(self) -> None:
        """Stop training after the current step (or epoch end)."""
        self._stop_requested = True

    def get_stop_requested(self) -> bool:
        return self._stop_requested


class Callback:
    """Base class of training and evaluation callbacks; every method does nothing."""

    def begin(self, run_context): pass

    def epoch_begin(self, run_context): pass

    def epoch_end(self, run_context): pass

    def step_begin(self, run_context): pass

    def step_end(self, run_context): pass

    def end(self, run_context): pass

    def on_train_begin(self, run_context):
        self.begin(run_context)

    def on_train_epoch_begin(self, run_context):
        self.epoch_begin(run_context)

    def on_train_step_begin(self, run_context):
        self.step_begin(run_context)

    def on_train_step_end(self, run_context):
        self.step_end(run_context)

    def on_train_epoch_end(self, run_context):
        self.epoch_end(run_context)

    def on_train_end(self, run_context):
        self.end(run_context)

    def on_eval_begin(self, run_context): pass

    def on_eval_epoch_begin(self, run_context): pass

    def on_eval_step_begin(self, run_context): pass

    def on_eval_step_end(self, run_context): pass

    def on_eval_epoch_end(self, run_context): pass

    def on_eval_end(self, run_context): pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


_EVENTS = ("on_train_begin", "on_train_epoch_begin", "on_train_step_begin",
           "on_train_step_end", "on_train_epoch_end", "on_train_end", "on_eval_begin",
           "on_eval_epoch_begin", "on_eval_step_begin", "on_eval_step_end",
           "on_eval_epoch_end", "on_eval_end")


class CallbackList(Callback):
    """Several callbacks called in order (a single callback or None is accepted too)."""

    def __init__(self, callbacks=None):
        if callbacks is None:
            callbacks = []
        elif isinstance(callbacks, Callback):
            callbacks = [callbacks]
        callbacks = list(callbacks)
        for i, cb in enumerate(callbacks):
            if not isinstance(cb, Callback):
                raise TypeError(f"callbacks: item {i} is a {type(cb).__name__}, expected a "
                                "Callback instance")
        self.callbacks = callbacks


def _dispatch(event):
    def call(self, run_context):
        for cb in self.callbacks:
            getattr(cb, event)(run_context)
    call.__name__ = event
    call.__doc__ = f"Call ``{event}`` of every callback in order."
    return call


for _event in _EVENTS:
    setattr(CallbackList, _event, _dispatch(_event))
del _event
