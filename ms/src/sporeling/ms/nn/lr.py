"""Dynamic learning rates of ``ms.nn`` (sporeling.expression's: MindSpore's signatures),
except ``natural_exp_decay_lr``, whose MindSpore definition is kept here (see its doc)."""
import math

from sporeling.expression.nn import (CosineDecayLR, ExponentialDecayLR, InverseDecayLR,
                                     LearningRateSchedule, NaturalExpDecayLR,
                                     PolynomialDecayLR, WarmUpLR, cosine_decay_lr,
                                     exponential_decay_lr, inverse_decay_lr,
                                     piecewise_constant_lr, polynomial_decay_lr, warmup_lr)

__all__ = ["LearningRateSchedule", "CosineDecayLR", "ExponentialDecayLR", "InverseDecayLR",
           "NaturalExpDecayLR", "PolynomialDecayLR", "WarmUpLR", "cosine_decay_lr",
           "exponential_decay_lr", "inverse_decay_lr", "natural_exp_decay_lr",
           "piecewise_constant_lr", "polynomial_decay_lr", "warmup_lr"]


def natural_exp_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                         is_stair=False):
    """MindSpore's documented rule: ``lr * exp(-decay_rate * current_epoch)`` with
    ``current_epoch = floor(i / step_per_epoch)`` -- *not* divided by ``decay_epoch``;
    ``is_stair`` rounds ``current_epoch`` down to a multiple of ``decay_epoch``
    (documented example: ``(0.1, 0.9, 6, 2, 2, True)`` -> ``[0.1] * 4 + [0.0165...] * 2``)."""
    for name, value in (("total_step", total_step), ("step_per_epoch", step_per_epoch),
                        ("decay_epoch", decay_epoch)):
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise ValueError(f"natural_exp_decay_lr: {name} must be a positive int, got "
                             f"{value!r}")
    if learning_rate <= 0 or decay_rate <= 0:
        raise ValueError("natural_exp_decay_lr: learning_rate and decay_rate must be > 0, got "
                         f"{learning_rate}, {decay_rate}")
    out = []
    for i in range(total_step):
        epoch = i // step_per_epoch
        if is_stair:
            epoch = epoch // decay_epoch * decay_epoch
        out.append(learning_rate * math.exp(-decay_rate * epoch))
    return out
