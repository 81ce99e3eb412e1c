"""Dynamic learning rates of ``ms.nn`` (sporeling.expression's: MindSpore's signatures)."""
from sporeling.expression.nn import (CosineDecayLR, ExponentialDecayLR, InverseDecayLR,
                                     LearningRateSchedule, NaturalExpDecayLR,
                                     PolynomialDecayLR, WarmUpLR, cosine_decay_lr,
                                     exponential_decay_lr, inverse_decay_lr,
                                     natural_exp_decay_lr, piecewise_constant_lr,
                                     polynomial_decay_lr, warmup_lr)

__all__ = ["LearningRateSchedule", "CosineDecayLR", "ExponentialDecayLR", "InverseDecayLR",
           "NaturalExpDecayLR", "PolynomialDecayLR", "WarmUpLR", "cosine_decay_lr",
           "exponential_decay_lr", "inverse_decay_lr", "natural_exp_decay_lr",
           "piecewise_constant_lr", "polynomial_decay_lr", "warmup_lr"]
