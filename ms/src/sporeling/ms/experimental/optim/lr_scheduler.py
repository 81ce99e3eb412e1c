"""``ms.experimental.optim.lr_scheduler``: PyTorch's learning-rate schedulers over the
experimental optimizers' groups.

A scheduler keeps each group's starting rate as ``initial_lr`` (added to the group, as
PyTorch does), sets the groups' ``lr`` Parameters when it is built (step 0) and at every
``step()``, from the current rate (PyTorch's chainable forms, so two schedulers on one
optimizer compose); ``get_last_lr()`` gives the rates it set last, one float32 Tensor per
group as MindSpore prints them. ``step(epoch)`` jumps to ``epoch``: the closed form where
the scheduler has one (PyTorch's ``_get_closed_form_lr``; ``SequentialLR`` restarts the
next scheduler so). Here: ``StepLR``, ``MultiStepLR``, ``ConstantLR``, ``LinearLR``,
``ExponentialLR``, ``PolynomialLR``, ``CosineAnnealingLR``, ``LambdaLR``,
``MultiplicativeLR``; ``SequentialLR``, ``ChainedScheduler``, ``CyclicLR``,
``CosineAnnealingWarmRestarts`` and ``ReduceLROnPlateau`` are in
``lr_scheduler_extra.py``.
"""
from __future__ import annotations

import math
from bisect import bisect_right
from collections import Counter

import numpy as np

from sporeling.core import ArgumentError
from sporeling.expression import Tensor

__all__ = ["LRScheduler", "StepLR", "MultiStepLR", "ConstantLR", "LinearLR", "ExponentialLR",
           "PolynomialLR", "CosineAnnealingLR", "LambdaLR", "MultiplicativeLR", "SequentialLR",
           "ChainedScheduler", "CyclicLR", "CosineAnnealingWarmRestarts", "ReduceLROnPlateau"]


def _value(lr) -> float:
    return float(np.asarray(lr.asnumpy() if hasattr(lr, "asnumpy") else lr))


def _check_optimizer(optimizer, name: str) -> None:
    from .optimizer import Optimizer
    if not isinstance(optimizer, Optimizer):
        raise ArgumentError("a scheduler drives an experimental optimizer", op=name,
                            expected="mindspore.experimental.optim.Optimizer",
                            got=type(optimizer).__name__)


class LRScheduler:
    """``LRScheduler(optimizer, last_epoch=-1)``: subclasses write ``get_lr()``, the groups'
    rates at ``self.last_epoch`` from their current ones (``self._rates()``)."""

    def __init__(self, optimizer, last_epoch: int = -1):
        name = type(self).__name__
        _check_optimizer(optimizer, name)
        if isinstance(last_epoch, bool) or not isinstance(last_epoch, int) or last_epoch < -1:
            raise ArgumentError("last_epoch must be an int >= -1", op=name,
                                expected=">= -1", got=last_epoch)
        self.optimizer = optimizer
        for k, group in enumerate(optimizer.param_groups):
            if last_epoch == -1:
                group.setdefault("initial_lr", _value(group["lr"]))
            elif "initial_lr" not in group:
                raise KeyError(f"{name}: param_groups[{k}] has no 'initial_lr' "
                               "(resuming with last_epoch != -1 needs it)")
        self.base_lrs = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        self.step()

    def _rates(self) -> list[float]:
        return [_value(group["lr"]) for group in self.optimizer.param_groups]

    def get_lr(self) -> list[float]:
        raise NotImplementedError

    def get_last_lr(self) -> list:
        """The rates the last ``step()`` set, one float32 Tensor per group."""
        return [Tensor(np.asarray(lr, np.float32)) for lr in self._last_lr]

    def step(self, epoch=None) -> None:
        """The next epoch's rates, into the groups' ``lr`` Parameters; ``step(epoch)`` sets
        the epoch and takes the closed form's rates where there is one."""
        if epoch is None:
            self.last_epoch += 1
            rates = self.get_lr()
        else:
            self.last_epoch = epoch
            closed = getattr(self, "_get_closed_form_lr", None)
            rates = closed() if closed is not None else self.get_lr()
        self._set(rates)

    def _set(self, rates) -> None:
        rates = [float(r) for r in rates]
        for group, lr in zip(self.optimizer.param_groups, rates):
            group["lr"].set_data(Tensor(np.asarray(lr, np.float32)))
        self._last_lr = rates


class StepLR(LRScheduler):
    """``lr * gamma`` every ``step_size`` epochs."""

    def __init__(self, optimizer, step_size: int, gamma: float = 0.1, last_epoch: int = -1):
        self.step_size, self.gamma = int(step_size), float(gamma)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e = self.last_epoch
        if e == 0 or e % self.step_size:
            return self._rates()
        return [lr * self.gamma for lr in self._rates()]

    def _get_closed_form_lr(self):
        return [base * self.gamma ** (self.last_epoch // self.step_size)
                for base in self.base_lrs]


class MultiStepLR(LRScheduler):
    """``lr * gamma`` at each milestone (twice at a milestone given twice)."""

    def __init__(self, optimizer, milestones, gamma: float = 0.1, last_epoch: int = -1):
        self.milestones, self.gamma = Counter(int(m) for m in milestones), float(gamma)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        return [lr * self.gamma ** self.milestones.get(self.last_epoch, 0)
                for lr in self._rates()]

    def _get_closed_form_lr(self):
        passed = bisect_right(sorted(self.milestones.elements()), self.last_epoch)
        return [base * self.gamma ** passed for base in self.base_lrs]


class ConstantLR(LRScheduler):
    """``lr * factor`` until epoch ``total_iters``, then ``lr``."""

    def __init__(self, optimizer, factor: float = 1 / 3, total_iters: int = 5,
                 last_epoch: int = -1):
        if not 0 < factor <= 1:
            raise ArgumentError("factor must be in (0, 1]", op="ConstantLR",
                                expected="0 < factor <= 1", got=factor)
        self.factor, self.total_iters = float(factor), int(total_iters)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e = self.last_epoch
        if e == 0:
            return [lr * self.factor for lr in self._rates()]
        if e == self.total_iters:
            return [lr / self.factor for lr in self._rates()]
        return self._rates()

    def _get_closed_form_lr(self):
        factor = 1.0 if self.last_epoch >= self.total_iters else self.factor
        return [base * factor for base in self.base_lrs]


class LinearLR(LRScheduler):
    """The factor goes linearly from ``start_factor`` to ``end_factor`` over
    ``total_iters`` epochs."""

    def __init__(self, optimizer, start_factor: float = 1 / 3, end_factor: float = 1.0,
                 total_iters: int = 5, last_epoch: int = -1):
        if not (0 < start_factor <= 1 and 0 <= end_factor <= 1):
            raise ArgumentError("factors must be in (0, 1] (start) and [0, 1] (end)",
                                op="LinearLR", expected="0 < start <= 1, 0 <= end <= 1",
                                got=(start_factor, end_factor))
        self.start, self.end, self.total_iters = float(start_factor), float(end_factor), \
            int(total_iters)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e = self.last_epoch
        if e == 0:
            return [lr * self.start for lr in self._rates()]
        if e > self.total_iters:
            return self._rates()
        change = self.end - self.start
        return [lr * (1 + change / (self.total_iters * self.start + (e - 1) * change))
                for lr in self._rates()]

    def _get_closed_form_lr(self):
        done = min(self.total_iters, self.last_epoch) / self.total_iters
        return [base * (self.start + (self.end - self.start) * done) for base in self.base_lrs]


class ExponentialLR(LRScheduler):
    """``lr * gamma`` every epoch."""

    def __init__(self, optimizer, gamma: float, last_epoch: int = -1):
        self.gamma = float(gamma)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        return self._rates() if self.last_epoch == 0 else \
            [lr * self.gamma for lr in self._rates()]

    def _get_closed_form_lr(self):
        return [base * self.gamma ** self.last_epoch for base in self.base_lrs]


class PolynomialLR(LRScheduler):
    """``base_lr * (1 - epoch / total_iters) ** power`` over ``total_iters`` epochs."""

    def __init__(self, optimizer, total_iters: int = 5, power: float = 1.0,
                 last_epoch: int = -1):
        self.total_iters, self.power = int(total_iters), float(power)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e, total = self.last_epoch, self.total_iters
        if e == 0 or e > total:
            return self._rates()
        factor = ((1 - e / total) / (1 - (e - 1) / total)) ** self.power
        return [lr * factor for lr in self._rates()]

    def _get_closed_form_lr(self):
        left = 1 - min(self.total_iters, self.last_epoch) / self.total_iters
        return [base * left ** self.power for base in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """Cosine annealing from the base rate to ``eta_min`` over ``T_max`` epochs (and back,
    as PyTorch's continues)."""

    def __init__(self, optimizer, T_max: int, eta_min: float = 0.0, last_epoch: int = -1):
        self.T_max, self.eta_min = int(T_max), float(eta_min)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e, t, low = self.last_epoch, self.T_max, self.eta_min
        rates = self._rates()
        if e == 0:
            return rates
        if (e - 1 - t) % (2 * t) == 0:
            return [lr + (base - low) * (1 - math.cos(math.pi / t)) / 2
                    for lr, base in zip(rates, self.base_lrs)]
        return [(1 + math.cos(math.pi * e / t)) / (1 + math.cos(math.pi * (e - 1) / t))
                * (lr - low) + low for lr in rates]

    def _get_closed_form_lr(self):
        low, cos = self.eta_min, math.cos(math.pi * self.last_epoch / self.T_max)
        return [low + (base - low) * (1 + cos) / 2 for base in self.base_lrs]


def _lambdas(optimizer, lr_lambda, name) -> list:
    count = len(optimizer.param_groups)
    if isinstance(lr_lambda, (list, tuple)):
        if len(lr_lambda) != count:
            raise ValueError(f"{name}: expected {count} lr_lambdas (one per parameter "
                             f"group), got {len(lr_lambda)}")
        return list(lr_lambda)
    return [lr_lambda] * count


class LambdaLR(LRScheduler):
    """``base_lr * lr_lambda(epoch)`` (one function, or one per group)."""

    def __init__(self, optimizer, lr_lambda, last_epoch: int = -1):
        self.lr_lambdas = _lambdas(optimizer, lr_lambda, "LambdaLR")
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        return [base * f(self.last_epoch) for base, f in zip(self.base_lrs, self.lr_lambdas)]


class MultiplicativeLR(LRScheduler):
    """``lr * lr_lambda(epoch)`` from epoch 1 on."""

    def __init__(self, optimizer, lr_lambda, last_epoch: int = -1):
        self.lr_lambdas = _lambdas(optimizer, lr_lambda, "MultiplicativeLR")
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        if self.last_epoch == 0:
            return self._rates()
        return [lr * f(self.last_epoch) for lr, f in zip(self._rates(), self.lr_lambdas)]


# the schedulers built on these (they import LRScheduler from here)
from .lr_scheduler_extra import (ChainedScheduler, CosineAnnealingWarmRestarts,  # noqa: E402
                                 CyclicLR, ReduceLROnPlateau, SequentialLR)
