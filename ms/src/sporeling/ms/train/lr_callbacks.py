"""``LearningRateScheduler`` and ``ReduceLROnPlateau``: callbacks that change the
optimizer's (fixed) learning rate during training, as MindSpore 2.10's do."""
from __future__ import annotations

import math

import numpy as np

from sporeling.expression import Parameter
from sporeling.expression.graph.cell_call import cache_of
from sporeling.expression.train.batches import TrainError
from sporeling.expression.train.callbacks import Callback
from sporeling.expression.train.callbacks._values import loss_value

from .metrics._base import check_type

__all__ = ["LearningRateScheduler", "ReduceLROnPlateau"]

# the monitored values for which smaller is better (mode="auto")
_SMALLER_BETTER = ("hausdorff_distance", "mae", "mse", "loss", "perplexity",
                   "mean_surface_distance", "root_mean_square_distance", "eval_loss")


class _ParameterRate:
    """A learning rate read from a Parameter, so that a compiled step reads its current
    value (MindSpore keeps a fixed learning rate in a Parameter too)."""

    def __init__(self, value: float):
        self.param = Parameter(np.asarray(value, np.float32), name="learning_rate",
                               requires_grad=False)

    def __call__(self, step):
        return self.param


def _rate_parameter(cb, where: str) -> Parameter:
    """The Parameter holding the optimizer's fixed learning rate (made on first use; the
    training step's compiled graphs, which read the old constant, are dropped)."""
    optimizer = cb.optimizer
    rate = getattr(optimizer, "learning_rate", None)
    if isinstance(getattr(rate, "schedule", None), _ParameterRate):
        return rate.schedule.param
    if getattr(optimizer, "is_group", False) or getattr(rate, "constant", None) is None:
        raise TrainError("the learning rate must be one fixed value", op=where,
                         expected="an optimizer built with a float learning_rate and no "
                                  "parameter groups",
                         got=repr(rate), hint="dynamic and group learning rates are not "
                                              "supported (as in MindSpore)")
    rate.schedule, rate.constant = _ParameterRate(rate.constant), None
    network = cb.get("train_network")
    if network is not None:
        cache_of(network).clear()
    return rate.schedule.param


def _read(param: Parameter) -> float:
    return float(param.asnumpy())


def _write(param: Parameter, value) -> None:
    param.set_data(np.asarray(value, np.float32))


class LearningRateScheduler(Callback):
    """After each step, ``learning_rate_function(lr, cur_step_num)`` gives the learning rate
    of the next steps."""

    def __init__(self, learning_rate_function):
        if not callable(learning_rate_function):
            raise TypeError(f"LearningRateScheduler: learning_rate_function must be callable, "
                            f"got {type(learning_rate_function).__name__}")
        self.learning_rate_function = learning_rate_function

    def on_train_begin(self, run_context):
        _rate_parameter(run_context.original_args(), "LearningRateScheduler")

    def step_end(self, run_context):
        cb = run_context.original_args()
        param = _rate_parameter(cb, "LearningRateScheduler")
        lr = _read(param)
        new_lr = self.learning_rate_function(lr, cb.cur_step_num)
        if not math.isclose(lr, new_lr, rel_tol=1e-10):
            _write(param, new_lr)


class ReduceLROnPlateau(Callback):
    """Multiply the learning rate by ``factor`` (not below ``min_lr``) after ``patience``
    epochs in which ``monitor`` did not improve by more than ``min_delta``, then wait
    ``cooldown`` epochs. ``monitor``: ``"loss"`` (the last step's loss) or, with
    ``Model.fit``'s evaluation, ``"eval_loss"`` or a metric name; ``mode`` ``"auto"`` takes
    losses and distances as smaller-is-better."""

    def __init__(self, monitor="eval_loss", factor=0.1, patience=10, verbose=False,
                 mode="auto", min_delta=1e-4, cooldown=0, min_lr=0):
        where = "ReduceLROnPlateau"
        self.monitor = check_type("monitor", monitor, (str,), where)
        check_type("factor", factor, (float,), where)
        if not 0.0 < factor < 1.0:
            raise ValueError(f"For '{where}', 'factor' must be in (0, 1), but got {factor}.")
        self.factor = factor
        for name, value in (("patience", patience), ("cooldown", cooldown)):
            check_type(name, value, (int,), where)
            if value < 0:
                raise ValueError(f"For '{where}', '{name}' must be >= 0, but got {value}.")
        self.patience, self.cooldown = patience, cooldown
        self.verbose = check_type("verbose", verbose, (bool,), where)
        if mode not in ("auto", "min", "max"):
            raise ValueError(f"mode should be 'auto', 'min' or 'max', but got {mode}.")
        self.mode = mode
        self.min_delta = abs(check_type("min_delta", min_delta, (float, int), where))
        self.min_lr = check_type("min_lr", min_lr, (float, int), where)
        self._smaller_better = mode == "min" or (mode == "auto" and monitor in _SMALLER_BETTER)
        self.on_train_begin(None)

    def on_train_begin(self, run_context):
        self.cooldown_counter = self.wait = 0
        self.best = np.inf if self._smaller_better else -np.inf
        if run_context is not None:
            _rate_parameter(run_context.original_args(), "ReduceLROnPlateau")

    def _improved(self, value) -> bool:
        if self._smaller_better:
            return value < self.best - self.min_delta
        return value > self.best + self.min_delta

    def _monitored(self, cb):
        if self.monitor == "loss":
            outputs = cb.get("net_outputs")
            return None if outputs is None else loss_value(outputs)
        value = (cb.get("eval_results") or {}).get(self.monitor)
        if value is not None and np.ndim(value) != 0:
            raise ValueError("ReduceLROnPlateau only supports scalar monitor now.")
        return None if value is None else float(value)

    def on_train_epoch_end(self, run_context):
        cb = run_context.original_args()
        param = _rate_parameter(cb, "ReduceLROnPlateau")
        value = self._monitored(cb)
        if value is None:
            return
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        if self._improved(value):
            self.best, self.wait = value, 0
        elif self.cooldown_counter <= 0:
            self.wait += 1
            if self.wait >= self.patience:
                lr = _read(param)
                if lr > self.min_lr:
                    new_lr = max(lr * self.factor, self.min_lr)
                    _write(param, new_lr)
                    if self.verbose:
                        print(f"Epoch {cb.cur_epoch_num:05d}: ReduceLROnPlateau reducing "
                              f"learning rate to {new_lr}.", flush=True)
                self.cooldown_counter, self.wait = self.cooldown, 0
