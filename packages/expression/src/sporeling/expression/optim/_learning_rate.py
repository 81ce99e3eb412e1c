"""The three forms a learning rate takes: a number, one value per step, a schedule.

``at(step)`` reads it at an int step (a Python float) or, inside a Graph-mode trace, at the
step counter's Parameter (a constant stays a float; per-step values are looked up and a
schedule is called on the step: float64 Tensors computed in the compiled step)."""
from __future__ import annotations

import numbers

import numpy as np

from sporeling.core import SporelingError

from ..tensor.tensor import Tensor
from .lr_schedule import LearningRateSchedule
from ._arrays import to_numpy

__all__ = ["LearningRate", "as_learning_rate"]


class LearningRate:
    """The learning rate at a given step. ``values`` is None for a schedule."""
    __slots__ = ("constant", "values", "schedule")

    def __init__(self, constant=None, values=None, schedule=None):
        self.constant, self.values, self.schedule = constant, values, schedule

    def at(self, step):
        if self.constant is not None:
            return self.constant
        if isinstance(step, Tensor):
            return self._traced_at(step)
        if self.values is not None:
            # past the end of a per-step list the last value stays (documented)
            return float(self.values[min(step, len(self.values) - 1)])
        return float(self.schedule(step))

    def __array__(self, dtype=None, copy=None):
        """A constant rate as a float32 scalar (MindSpore's ``optimizer.learning_rate`` is a
        float32 Parameter, which a custom optimizer passes to ``ops.ApplyMomentum``)."""
        if self.constant is None:
            raise TypeError(f"{self!r} changes with the step: read it with at(step) "
                            f"(an optimizer's get_lr())")
        return np.asarray(self.constant, dtype or np.float32)

    def _traced_at(self, step: Tensor) -> Tensor:
        from .. import ops
        if self.values is not None:
            table = Tensor(np.asarray(self.values, np.float64))
            return table[ops.minimum(step, len(self.values) - 1)]
        try:
            value = self.schedule(step.astype(np.float64))
        except Exception as exc:
            raise SporelingError("a learning-rate schedule that cannot be compiled",
                                 op="learning rate (Graph mode)",
                                 expected="a LearningRateSchedule, or a callable step -> lr "
                                          "written with ops (it gets the step as a Tensor)",
                                 got=f"{self.schedule!r}: {type(exc).__name__}: {exc}",
                                 hint="give its values per step (a list) instead") from exc
        return value.astype(np.float64) if isinstance(value, Tensor) else float(value)

    def __repr__(self) -> str:
        form = self.constant if self.constant is not None else (
            f"{len(self.values)} per-step values" if self.values is not None
            else self.schedule)
        return f"LearningRate({form})"


def as_learning_rate(value, where: str = "learning_rate") -> LearningRate:
    """Normalise a float, a sequence/array/Tensor of per-step values or a
    ``LearningRateSchedule`` (or any callable ``step -> lr``)."""
    if isinstance(value, LearningRate):
        return value
    if isinstance(value, bool):
        raise TypeError(f"{where}: expected a float, per-step values or a "
                        f"LearningRateSchedule, got bool")
    if isinstance(value, numbers.Real):
        if not 0 <= value < float("inf"):  # NaN and infinity too
            raise ValueError(f"{where}: expected a finite learning rate >= 0, got {value}")
        return LearningRate(constant=float(value))
    if isinstance(value, LearningRateSchedule) or (
            callable(value) and not hasattr(value, "shape") and
            not isinstance(value, (list, tuple))):
        return LearningRate(schedule=value)
    try:
        arr = np.asarray(to_numpy(value), dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{where}: expected a float, per-step values or a "
                        f"LearningRateSchedule, got {type(value).__name__}") from None
    if arr.ndim == 0:
        return as_learning_rate(float(arr), where)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"{where}: per-step learning rates must be a non-empty 1-D "
                         f"sequence, got shape {arr.shape}")
    if not np.isfinite(arr).all() or (arr < 0).any():
        raise ValueError(f"{where}: learning rates must be finite and >= 0, got min "
                         f"{arr.min()}, max {arr.max()}")
    return LearningRate(values=arr)
