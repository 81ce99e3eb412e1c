"""``LambdaCallback`` (a callback from functions) and ``OnRequestExit`` (stop cleanly on a
signal, saving a checkpoint)."""
from __future__ import annotations

import os
import signal
import warnings

from sporeling.expression.train.batches import as_inputs
from sporeling.expression.train.callbacks import Callback

from .metrics._base import check_type
from .serialization import load_checkpoint, save_checkpoint

__all__ = ["LambdaCallback", "OnRequestExit"]

_EVENTS = ("on_train_epoch_begin", "on_train_epoch_end", "on_train_step_begin",
           "on_train_step_end", "on_train_begin", "on_train_end", "on_eval_epoch_begin",
           "on_eval_epoch_end", "on_eval_step_begin", "on_eval_step_end", "on_eval_begin",
           "on_eval_end")


class LambdaCallback(Callback):
    """A callback whose ``on_train_*``/``on_eval_*`` methods are the functions given (each
    called with the ``run_context``); the events not given do nothing."""

    def __init__(self, on_train_epoch_begin=None, on_train_epoch_end=None,
                 on_train_step_begin=None, on_train_step_end=None, on_train_begin=None,
                 on_train_end=None, on_eval_epoch_begin=None, on_eval_epoch_end=None,
                 on_eval_step_begin=None, on_eval_step_end=None, on_eval_begin=None,
                 on_eval_end=None):
        given = locals()
        for event in _EVENTS:
            fn = given[event]
            if fn is None:
                continue
            if not callable(fn):
                raise TypeError(f"LambdaCallback: {event} must be callable, got "
                                f"{type(fn).__name__}")
            setattr(self, event, fn)


class OnRequestExit(Callback):
    """On signal ``sig`` (default SIGTERM) stop training (or evaluation) after the current
    step and save the network to ``<directory>/<file_name>_train.ckpt`` (``_eval`` for
    evaluation); a later run with the same callback loads that checkpoint when it starts.
    ``save_mindir`` also exports the network with ``ms.export`` (MindIR) from the last
    step's inputs (a warning says so when no MindIR could be written)."""

    def __init__(self, save_ckpt=True, save_mindir=True, file_name="Net", directory="./",
                 sig=signal.SIGTERM):
        where = "OnRequestExit"
        self.save_ckpt = check_type("save_ckpt", save_ckpt, (bool,), where)
        self.save_mindir = check_type("save_mindir", save_mindir, (bool,), where)
        if save_ckpt or save_mindir:
            check_type("file_name", file_name, (str,), where)
            check_type("directory", directory, (str,), where)
            os.makedirs(os.path.abspath(directory), exist_ok=True)
            self.train_file_path = os.path.abspath(os.path.join(directory, f"{file_name}_train"))
            self.eval_file_path = os.path.abspath(os.path.join(directory, f"{file_name}_eval"))
        self.sig = check_type("sig", sig, (int,), where)
        if hasattr(signal, "SIGKILL") and sig == signal.SIGKILL:
            raise ValueError("Not support send exit request by signal SIGKILL.")
        self.exit = False

    def _handle_signal(self, signum, frame):
        self.exit = True

    def _listen(self):
        signal.signal(self.sig, self._handle_signal)

    def _save(self, network, path, inputs):
        if self.save_ckpt:
            save_checkpoint(network, path)
        if self.save_mindir:
            import sporeling.ms
            export = getattr(sporeling.ms, "export", None)
            if export is None or inputs is None:
                warnings.warn("OnRequestExit: no MindIR written (ms.export is not available "
                              "here); the checkpoint holds the weights", stacklevel=2)
            else:
                from ..mindir import MindIRError
                try:
                    export(network, *as_inputs(inputs), file_name=path, file_format="MINDIR")
                except MindIRError as error:  # e.g. a training step's optimizer updates
                    warnings.warn(f"OnRequestExit: no MindIR written ({error}); the "
                                  "checkpoint holds the weights", stacklevel=2)

    def on_train_begin(self, run_context):
        self._listen()
        if self.save_ckpt and os.path.isfile(f"{self.train_file_path}.ckpt"):
            load_checkpoint(f"{self.train_file_path}.ckpt",
                            net=run_context.original_args().train_network)

    def on_train_step_end(self, run_context):
        if self.exit:
            run_context.request_stop()

    on_train_epoch_end = on_train_step_end

    def on_train_end(self, run_context):
        if self.exit:
            cb = run_context.original_args()
            self._save(cb.train_network, self.train_file_path,
                       cb.get("train_dataset_element"))

    def on_eval_begin(self, run_context):
        self._listen()
        if not self.save_ckpt:
            return
        network = run_context.original_args().eval_network
        for path in (self.eval_file_path, self.train_file_path):
            if os.path.isfile(f"{path}.ckpt"):
                load_checkpoint(f"{path}.ckpt", net=network)
                break

    def on_eval_step_end(self, run_context):
        if self.exit:
            run_context.request_stop()

    def on_eval_end(self, run_context):
        if self.exit:
            cb = run_context.original_args()
            self._save(cb.eval_network, self.eval_file_path, cb.get("eval_dataset_element"))
