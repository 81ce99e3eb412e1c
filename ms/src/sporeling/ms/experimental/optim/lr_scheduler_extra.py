"""2.10's other schedulers, PyTorch's semantics: ``SequentialLR`` and ``ChainedScheduler``
(schedulers of schedulers), ``CyclicLR``, ``CosineAnnealingWarmRestarts`` (``step(epoch)``
with a fractional epoch too) and ``ReduceLROnPlateau`` (``step(metric)``). Each writes the
groups' ``lr`` Parameters as ``lr_scheduler.LRScheduler`` does and answers
``get_last_lr()`` the same way (re-exported by ``lr_scheduler``)."""
from __future__ import annotations

import math
import numbers
from bisect import bisect_right

from sporeling.core import ArgumentError

from .lr_scheduler import LRScheduler, _check_optimizer, _value

__all__ = ["SequentialLR", "ChainedScheduler", "CyclicLR", "CosineAnnealingWarmRestarts",
           "ReduceLROnPlateau"]


def _refuse(name: str, message: str, expected, got):
    raise ArgumentError(message, op=name, expected=expected, got=repr(got)[:80])


def _number(name: str, label: str, value, low=-math.inf, low_open=False, integer=False):
    kind = numbers.Integral if integer else numbers.Real
    if isinstance(value, bool) or not isinstance(value, kind) or not math.isfinite(value) \
            or value < low or (low_open and value == low):
        bound = "" if low == -math.inf else f" {'>' if low_open else '>='} {low:g}"
        what = f"{'an int' if integer else 'a finite number'}{bound}"
        _refuse(name, f"{label} must be {what}", what, value)
    return value


def _per_group(name: str, optimizer, value, label: str) -> list[float]:
    """One value per parameter group: a list of them, or one for all."""
    count = len(optimizer.param_groups)
    if isinstance(value, (list, tuple)):
        if len(value) != count:
            _refuse(name, f"one {label} per parameter group", count, value)
        return [_number(name, label, v) for v in value]
    return [_number(name, label, value)] * count


def _members(name: str, schedulers, optimizer):
    """The schedulers of a ``SequentialLR``/``ChainedScheduler``: at least one, none a
    ``ReduceLROnPlateau`` (its step needs a metric), all on ``optimizer``."""
    schedulers = list(schedulers)
    if not schedulers:
        _refuse(name, "expects at least one scheduler", "a non-empty list", schedulers)
    for k, scheduler in enumerate(schedulers):
        if isinstance(scheduler, ReduceLROnPlateau) or not hasattr(scheduler, "optimizer"):
            _refuse(name, f"scheduler {k} cannot be chained (ReduceLROnPlateau's step takes "
                    "a metric)", "LRScheduler", type(scheduler).__name__)
        if scheduler.optimizer is not optimizer:
            _refuse(name, f"scheduler {k} drives another optimizer", "the same optimizer",
                    type(scheduler.optimizer).__name__)
    return schedulers


class SequentialLR(LRScheduler):
    """``SequentialLR(optimizer, schedulers, milestones, last_epoch=-1)``: ``schedulers[i]``
    from epoch ``milestones[i - 1]`` on, restarted there at its epoch 0."""

    def __init__(self, optimizer, schedulers, milestones, last_epoch: int = -1):
        name = type(self).__name__
        _check_optimizer(optimizer, name)
        self._schedulers = _members(name, schedulers, optimizer)
        milestones = [_number(name, "a milestone", m, integer=True) for m in milestones]
        if len(milestones) != len(self._schedulers) - 1:
            _refuse(name, "one milestone fewer than schedulers", len(self._schedulers) - 1,
                    milestones)
        self._milestones, self.optimizer = milestones, optimizer
        self.last_epoch = last_epoch + 1
        self.base_lrs = [group["initial_lr"] for group in optimizer.param_groups]
        self._set(self.base_lrs)          # back to the initial rates,
        _undo(self)                        # the members' first steps undone,
        first = self._schedulers[bisect_right(self._milestones, 0)]
        first.step()                       # and the first one's step 0 taken again
        self._last_lr = list(first._last_lr)

    def step(self) -> None:  # pylint: disable=arguments-differ
        self.last_epoch += 1
        k = bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[k]
        if k > 0 and self._milestones[k - 1] == self.last_epoch:
            scheduler.step(0)
        else:
            scheduler.step()
        self._last_lr = list(scheduler._last_lr)


def _undo(scheduler) -> None:
    for member in getattr(scheduler, "_schedulers", ()):
        if hasattr(member, "_schedulers"):
            _undo(member)
        else:
            member.last_epoch -= 1


class ChainedScheduler(LRScheduler):
    """``ChainedScheduler(schedulers, optimizer=None)``: each ``step()`` steps every
    scheduler in turn (their chainable forms compose)."""

    def __init__(self, schedulers, optimizer=None):
        schedulers = list(schedulers)
        name = type(self).__name__
        if optimizer is None and schedulers:
            optimizer = getattr(schedulers[0], "optimizer", None)
        self._schedulers = _members(name, schedulers, optimizer)
        self.optimizer = optimizer
        self._last_lr = self._rates()

    def step(self) -> None:  # pylint: disable=arguments-differ
        for scheduler in self._schedulers:
            scheduler.step()
        self._last_lr = self._rates()


_CYCLES = {"triangular": (lambda self, x: 1.0, "cycle"),
           "triangular2": (lambda self, x: 1 / (2.0 ** (x - 1)), "cycle"),
           "exp_range": (lambda self, x: self.gamma ** x, "iterations")}


class CyclicLR(LRScheduler):
    """``CyclicLR(optimizer, base_lr, max_lr, step_size_up=2000, step_size_down=None,
    mode='triangular', gamma=1.0, scale_fn=None, scale_mode='cycle', last_epoch=-1)``:
    from ``base_lr`` up to ``max_lr`` in ``step_size_up`` steps and down in
    ``step_size_down``, the amplitude scaled by ``scale_fn`` of the cycle (or of the step:
    ``scale_mode='iterations'``) -- 1 (triangular), halved each cycle (triangular2),
    ``gamma**step`` (exp_range). Stepped per batch. (2.10's has no momentum cycling.)"""

    def __init__(self, optimizer, base_lr, max_lr, step_size_up=2000, step_size_down=None,
                 mode="triangular", gamma=1.0, scale_fn=None, scale_mode="cycle",
                 last_epoch: int = -1):
        name = type(self).__name__
        _check_optimizer(optimizer, name)
        lows = _per_group(name, optimizer, base_lr, "base_lr")
        self.max_lrs = _per_group(name, optimizer, max_lr, "max_lr")
        up = float(_number(name, "step_size_up", step_size_up, 0, low_open=True))
        down = up if step_size_down is None else \
            float(_number(name, "step_size_down", step_size_down, 0))
        self.total_size, self.step_ratio = up + down, up / (up + down)
        if scale_fn is None and mode not in _CYCLES:
            _refuse(name, "mode must be one of triangular, triangular2, exp_range (or give "
                    "scale_fn)", sorted(_CYCLES), mode)
        if scale_fn is not None and not callable(scale_fn):
            _refuse(name, "scale_fn must be a function of one number", "a callable", scale_fn)
        self.mode, self.gamma = mode, float(_number(name, "gamma", gamma))
        self._scale_fn_custom, self.scale_mode = scale_fn, scale_mode
        if scale_fn is None:
            self._scale_fn_ref, self.scale_mode = _CYCLES[mode]
        if last_epoch == -1:
            self.optimizer = optimizer
            self._set(lows)
        self._lows = lows
        super().__init__(optimizer, last_epoch)
        self.base_lrs = lows

    def scale_fn(self, x):
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        return self._scale_fn_ref(self, x)

    def get_lr(self):
        e = self.last_epoch
        cycle = math.floor(1 + e / self.total_size)
        x = 1.0 + e / self.total_size - cycle
        rise = x / self.step_ratio if x <= self.step_ratio else \
            (x - 1) / (self.step_ratio - 1)
        scale = self.scale_fn(cycle if self.scale_mode == "cycle" else e)
        return [low + (high - low) * rise * scale for low, high in zip(self._lows, self.max_lrs)]


class CosineAnnealingWarmRestarts(LRScheduler):
    """``CosineAnnealingWarmRestarts(optimizer, T_0, T_mult=1, eta_min=0, last_epoch=-1)``:
    cosine annealing from the base rate to ``eta_min`` over ``T_i`` epochs, then back to the
    base rate; ``T_0`` the first period, each next one ``T_mult`` times longer.
    ``step(epoch)`` takes a fractional epoch (a step per batch: ``epoch + i / iters``)."""

    def __init__(self, optimizer, T_0, T_mult=1, eta_min=0.0, last_epoch: int = -1):
        name = type(self).__name__
        self.T_0 = self.T_i = _number(name, "T_0", T_0, 0, low_open=True, integer=True)
        self.T_mult = _number(name, "T_mult", T_mult, 1, integer=True)
        self.eta_min = float(_number(name, "eta_min", eta_min))
        self.T_cur = last_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        cos = math.cos(math.pi * self.T_cur / self.T_i)
        return [self.eta_min + (base - self.eta_min) * (1 + cos) / 2 for base in self.base_lrs]

    def step(self, epoch=None) -> None:
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur += 1
            if self.T_cur >= self.T_i:
                self.T_cur, self.T_i = self.T_cur - self.T_i, self.T_i * self.T_mult
        else:
            epoch = _number(type(self).__name__, "epoch", epoch, 0)
            t0, mult = self.T_0, self.T_mult
            if epoch < t0:
                self.T_i, self.T_cur = t0, epoch
            elif mult == 1:
                self.T_i, self.T_cur = t0, epoch % t0
            else:
                n = int(math.log(epoch / t0 * (mult - 1) + 1, mult))
                self.T_cur = epoch - t0 * (mult ** n - 1) / (mult - 1)
                self.T_i = t0 * mult ** n
        self.last_epoch = math.floor(epoch)
        self._set(self.get_lr())


class ReduceLROnPlateau(LRScheduler):
    """``ReduceLROnPlateau(optimizer, mode='min', factor=0.1, patience=10, threshold=1e-4,
    threshold_mode='rel', cooldown=0, min_lr=0, eps=1e-8)``; ``step(metric)``. A metric
    better than the best by more than ``threshold`` (relative: ``best * (1 -+ threshold)``;
    absolute: ``best -+ threshold``) resets the count of bad epochs; past ``patience`` of
    them each group's rate becomes ``max(lr * factor, min_lr)`` (unless that changes it by
    ``eps`` or less), then ``cooldown`` epochs count no bad epochs."""

    def __init__(self, optimizer, mode="min", factor=0.1, patience=10, threshold=1e-4,
                 threshold_mode="rel", cooldown=0, min_lr=0, eps=1e-8):
        name = type(self).__name__
        _check_optimizer(optimizer, name)
        if not 0 <= _number(name, "factor", factor) < 1:
            _refuse(name, "factor must be in [0, 1)", "[0, 1)", factor)
        if mode not in ("min", "max"):
            _refuse(name, "mode must be 'min' or 'max'", "'min' or 'max'", mode)
        if threshold_mode not in ("rel", "abs"):
            _refuse(name, "threshold_mode must be 'rel' or 'abs'", "'rel' or 'abs'",
                    threshold_mode)
        self.optimizer, self.factor, self.mode = optimizer, float(factor), mode
        self.min_lrs = [_number(name, "min_lr", v, 0)
                        for v in _per_group(name, optimizer, min_lr, "min_lr")]
        self.patience = _number(name, "patience", patience, 0, integer=True)
        self.cooldown = _number(name, "cooldown", cooldown, 0, integer=True)
        self.threshold = float(_number(name, "threshold", threshold, 0))
        self.threshold_mode, self.eps = threshold_mode, float(_number(name, "eps", eps, 0))
        self.mode_worse = math.inf if mode == "min" else -math.inf
        self.best, self.num_bad_epochs, self.cooldown_counter = self.mode_worse, 0, 0
        self.last_epoch = 0
        self._last_lr = self._rates()

    @property
    def in_cooldown(self) -> bool:
        return self.cooldown_counter > 0

    def is_better(self, a: float, best: float) -> bool:
        rel, t = self.threshold_mode == "rel", self.threshold
        if self.mode == "min":
            return a < (best * (1.0 - t) if rel else best - t)
        return a > (best * (t + 1.0) if rel else best + t)

    def step(self, metrics) -> None:  # pylint: disable=arguments-differ
        current = _value(metrics)
        self.last_epoch += 1
        if self.is_better(current, self.best):
            self.best, self.num_bad_epochs = current, 0
        else:
            self.num_bad_epochs += 1
        if self.in_cooldown:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0
        if self.num_bad_epochs > self.patience:
            rates = self._rates()
            for k, old in enumerate(rates):
                new = max(old * self.factor, self.min_lrs[k])
                if old - new > self.eps:
                    rates[k] = new
            self._set(rates)
            self.cooldown_counter, self.num_bad_epochs = self.cooldown, 0
        self._last_lr = self._rates()
