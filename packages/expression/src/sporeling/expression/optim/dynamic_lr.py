"""Per-step learning-rate lists (MindSpore's ``nn.dynamic_lr``): pass the list as an
optimiser's ``learning_rate``; step ``i`` uses item ``i``.

Epoch-based: ``current_epoch = floor(i / step_per_epoch)`` for step ``i``.

    >>> piecewise_constant_lr([2, 5], [0.1, 0.01])
    [0.1, 0.1, 0.01, 0.01, 0.01]
    >>> exponential_decay_lr(1.0, 0.5, total_step=4, step_per_epoch=1, decay_epoch=1)
    [1.0, 0.5, 0.25, 0.125]
"""
from __future__ import annotations

import math

__all__ = ["piecewise_constant_lr", "exponential_decay_lr", "natural_exp_decay_lr",
           "inverse_decay_lr", "cosine_decay_lr", "polynomial_decay_lr", "warmup_lr"]


def _check_int(name: str, value, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{name} must be an int >= {minimum}, got {value!r}")
    return value


def _check_steps(total_step, step_per_epoch, decay_epoch, decay_name="decay_epoch"):
    _check_int("total_step", total_step)
    _check_int("step_per_epoch", step_per_epoch)
    _check_int(decay_name, decay_epoch)


def piecewise_constant_lr(milestone, learning_rates) -> list[float]:
    """``learning_rates[j]`` for steps ``milestone[j-1] <= i < milestone[j]``;
    ``milestone`` strictly increasing, as long as ``learning_rates``."""
    milestone, learning_rates = list(milestone), list(learning_rates)
    if len(milestone) != len(learning_rates) or not milestone:
        raise ValueError(f"piecewise_constant_lr: expected as many milestones as learning "
                         f"rates (at least one), got {len(milestone)} and "
                         f"{len(learning_rates)}")
    last = 0
    for m in milestone:
        _check_int("milestone item", m)
        if m <= last:
            raise ValueError(f"piecewise_constant_lr: milestones must increase, got "
                             f"{milestone}")
        last = m
    out, start = [], 0
    for m, lr in zip(milestone, learning_rates):
        out.extend([float(lr)] * (m - start))
        start = m
    return out


def _epoch_decay(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                 is_stair, fn) -> list[float]:
    _check_steps(total_step, step_per_epoch, decay_epoch)
    out = []
    for i in range(total_step):
        p = math.floor(i / step_per_epoch) / decay_epoch
        out.append(float(fn(learning_rate, decay_rate, math.floor(p) if is_stair else p)))
    return out


def exponential_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                         is_stair=False) -> list[float]:
    """``learning_rate * decay_rate ** (current_epoch / decay_epoch)`` (floored if stair)."""
    return _epoch_decay(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                        is_stair, lambda lr, r, p: lr * r ** p)


def natural_exp_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                         is_stair=False) -> list[float]:
    """``learning_rate * exp(-decay_rate * current_epoch / decay_epoch)``."""
    return _epoch_decay(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                        is_stair, lambda lr, r, p: lr * math.exp(-r * p))


def inverse_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                     is_stair=False) -> list[float]:
    """``learning_rate / (1 + decay_rate * current_epoch / decay_epoch)``."""
    return _epoch_decay(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                        is_stair, lambda lr, r, p: lr / (1.0 + r * p))


def cosine_decay_lr(min_lr, max_lr, total_step, step_per_epoch, decay_epoch) -> list[float]:
    """``min_lr + (max_lr - min_lr) * (1 + cos(pi * e / decay_epoch)) / 2`` with
    ``e = min(current_epoch, decay_epoch)``."""
    _check_steps(total_step, step_per_epoch, decay_epoch)
    if min_lr > max_lr:
        raise ValueError(f"cosine_decay_lr: min_lr ({min_lr}) must not exceed max_lr "
                         f"({max_lr})")
    delta = 0.5 * (max_lr - min_lr)
    return [float(min_lr + delta * (1.0 + math.cos(
        math.pi * min(math.floor(i / step_per_epoch), decay_epoch) / decay_epoch)))
        for i in range(total_step)]


def polynomial_decay_lr(learning_rate, end_learning_rate, total_step, step_per_epoch,
                        decay_epoch, power, update_decay_epoch=False) -> list[float]:
    """``(learning_rate - end_learning_rate) * (1 - e / d) ** power + end_learning_rate``,
    ``e = min(current_epoch, decay_epoch)``, ``d = decay_epoch``; with
    ``update_decay_epoch``, ``e = current_epoch`` and ``d`` grows to the next multiple of
    ``decay_epoch`` (MindSpore's formula)."""
    _check_steps(total_step, step_per_epoch, decay_epoch)
    if power <= 0:
        raise ValueError(f"polynomial_decay_lr: power must be > 0, got {power}")
    delta = learning_rate - end_learning_rate
    out = []
    for i in range(total_step):
        epoch = math.floor(i / step_per_epoch)
        if update_decay_epoch:
            d, e = decay_epoch * max(math.ceil(epoch / decay_epoch), 1), epoch
        else:
            d, e = decay_epoch, min(epoch, decay_epoch)
        out.append(float(delta * (1.0 - e / d) ** power + end_learning_rate))
    return out


def warmup_lr(learning_rate, total_step, step_per_epoch, warmup_epoch) -> list[float]:
    """``learning_rate * min(current_epoch, warmup_epoch) / warmup_epoch`` (0 in the first
    epoch, as MindSpore's)."""
    _check_steps(total_step, step_per_epoch, warmup_epoch, "warmup_epoch")
    return [float(learning_rate * min(math.floor(i / step_per_epoch), warmup_epoch)
                  / warmup_epoch) for i in range(total_step)]
