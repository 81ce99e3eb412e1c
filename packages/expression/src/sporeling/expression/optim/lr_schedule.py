"""Learning-rate schedules: objects called with the global step (MindSpore's
``nn.learning_rate_schedule``), plus ``SequentialLR`` to chain them (warm-up then cosine).

    >>> sched = SequentialLR([WarmUpLR(0.1, warmup_steps=10),
    ...                       CosineDecayLR(0.0, 0.1, decay_steps=90)], milestones=[10])
    >>> [round(sched(s), 4) for s in (0, 5, 10, 55, 100)]
    [0.0, 0.05, 0.1, 0.05, 0.0]

Each ``construct`` is written once with :mod:`._scalar`'s math: called with an int step
it computes on Python numbers and returns a float; inside a compiled step (Graph mode) the
optimiser calls it with the step counter as a float64 Tensor and it is recorded into the
graph, as MindSpore's schedule Cells are. A schedule of your own: subclass
``LearningRateSchedule`` and write ``construct`` the same way (``_scalar``'s functions, or
ops), or pass the per-step values as a list.
"""
from __future__ import annotations

import math

from ..tensor.tensor import Tensor
from . import _math as sm

__all__ = ["LearningRateSchedule", "ExponentialDecayLR", "NaturalExpDecayLR",
           "InverseDecayLR", "CosineDecayLR", "PolynomialDecayLR", "WarmUpLR", "SequentialLR"]


def _positive(name: str, value, kind=(int, float)):
    if isinstance(value, bool) or not isinstance(value, kind) or value <= 0:
        raise ValueError(f"{name} must be a positive number, got {value!r}")
    return value


def _non_negative(name: str, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise ValueError(f"{name} must be a number >= 0, got {value!r}")
    return float(value)


class LearningRateSchedule:
    """Base class: define ``construct(global_step) -> lr``; call the object to use it (an
    int step gives a float; a Tensor step, in a compiled step, a Tensor)."""

    def construct(self, global_step):  # pragma: no cover - abstract
        raise NotImplementedError(f"{type(self).__name__} does not define construct()")

    def __call__(self, global_step):
        if isinstance(global_step, Tensor):
            return self.construct(global_step)
        return float(self.construct(int(global_step)))


class _DecayLR(LearningRateSchedule):
    """``learning_rate * f(p)``, ``p = step / decay_steps`` (floored when ``is_stair``)."""

    def __init__(self, learning_rate: float, decay_rate: float, decay_steps: int,
                 is_stair: bool = False):
        self.learning_rate = _non_negative("learning_rate", learning_rate)
        self.decay_rate = _non_negative("decay_rate", decay_rate)
        self.decay_steps = _positive("decay_steps", decay_steps, int)
        self.is_stair = bool(is_stair)

    def _p(self, step: int) -> float:
        p = step / self.decay_steps
        return sm.floor(p) if self.is_stair else p


class ExponentialDecayLR(_DecayLR):
    """``learning_rate * decay_rate ** p``."""

    def construct(self, global_step):
        return self.learning_rate * self.decay_rate ** self._p(global_step)


class NaturalExpDecayLR(_DecayLR):
    """``learning_rate * exp(-decay_rate * p)``."""

    def construct(self, global_step):
        return self.learning_rate * sm.exp(-self.decay_rate * self._p(global_step))


class InverseDecayLR(_DecayLR):
    """``learning_rate / (1 + decay_rate * p)``."""

    def construct(self, global_step):
        return self.learning_rate / (1.0 + self.decay_rate * self._p(global_step))


class CosineDecayLR(LearningRateSchedule):
    """``min_lr + (max_lr - min_lr) * (1 + cos(pi * min(step, decay_steps) / decay_steps)) / 2``."""

    def __init__(self, min_lr: float, max_lr: float, decay_steps: int):
        self.min_lr = _non_negative("min_lr", min_lr)
        self.max_lr = _non_negative("max_lr", max_lr)
        if self.min_lr > self.max_lr:
            raise ValueError(f"min_lr ({min_lr}) must not exceed max_lr ({max_lr})")
        self.decay_steps = _positive("decay_steps", decay_steps, int)

    def construct(self, global_step):
        p = sm.minimum(global_step, self.decay_steps) / self.decay_steps
        return self.min_lr + 0.5 * (self.max_lr - self.min_lr) * (1.0 + sm.cos(math.pi * p))


class PolynomialDecayLR(LearningRateSchedule):
    """``(learning_rate - end_learning_rate) * (1 - s / d) ** power + end_learning_rate``
    with ``s = min(step, decay_steps)``, ``d = decay_steps``; with ``update_decay_steps``,
    ``s = step`` and ``d = decay_steps * max(ceil(step / decay_steps), 1)`` (the decay
    restarts each period, as MindSpore's)."""

    def __init__(self, learning_rate: float, end_learning_rate: float, decay_steps: int,
                 power: float, update_decay_steps: bool = False):
        self.learning_rate = _non_negative("learning_rate", learning_rate)
        self.end_learning_rate = _non_negative("end_learning_rate", end_learning_rate)
        self.decay_steps = _positive("decay_steps", decay_steps, int)
        self.power = _positive("power", power)
        self.update_decay_steps = bool(update_decay_steps)

    def construct(self, global_step):
        d = self.decay_steps
        if self.update_decay_steps:
            s, d = global_step, d * sm.maximum(sm.ceil(global_step / d), 1)
        else:
            s = sm.minimum(global_step, d)
        delta = self.learning_rate - self.end_learning_rate
        return delta * (1.0 - s / d) ** self.power + self.end_learning_rate


class WarmUpLR(LearningRateSchedule):
    """``learning_rate * min(step, warmup_steps) / warmup_steps`` (0 at step 0)."""

    def __init__(self, learning_rate: float, warmup_steps: int):
        self.learning_rate = _non_negative("learning_rate", learning_rate)
        self.warmup_steps = _positive("warmup_steps", warmup_steps, int)

    def construct(self, global_step):
        return self.learning_rate * sm.minimum(global_step, self.warmup_steps) / \
            self.warmup_steps


class SequentialLR(LearningRateSchedule):
    """Run ``schedules[i]`` from ``milestones[i-1]`` on, each seeing the step counted from
    its own start (PyTorch's ``SequentialLR``); ``len(milestones) == len(schedules) - 1``."""

    def __init__(self, schedules, milestones):
        schedules, milestones = list(schedules), [int(m) for m in milestones]
        if not schedules or len(milestones) != len(schedules) - 1:
            raise ValueError(f"SequentialLR: expected len(milestones) == len(schedules) - 1,"
                             f" got {len(milestones)} milestones for {len(schedules)} "
                             "schedules")
        if any(b <= a for a, b in zip([0] + milestones, milestones)):
            raise ValueError(f"SequentialLR: milestones must be positive and increasing, "
                             f"got {milestones}")
        for s in schedules:
            if not callable(s):
                raise TypeError(f"SequentialLR: schedules must be callable, got "
                                f"{type(s).__name__}")
        self.schedules, self.milestones = schedules, milestones

    def construct(self, global_step):
        value = self.schedules[0](global_step)  # each schedule's value, the running one kept
        for start, schedule in zip(self.milestones, self.schedules[1:]):
            own = schedule(sm.maximum(global_step - start, 0))
            value = sm.select(global_step >= start, own, value)
        return value
