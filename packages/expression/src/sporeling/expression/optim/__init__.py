"""Optimisers, learning-rate schedules and gradient clipping (MindSpore's ``nn`` optimiser
API on NumPy arrays; see ``optimizer.py`` for where it differs from PyTorch's).

    >>> import numpy as np
    >>> from sporeling.expression import optim
    >>> w = np.zeros(2)
    >>> opt = optim.Adam([w], learning_rate=optim.cosine_decay_lr(0.0, 0.1, 10, 1, 10))
    >>> _ = opt((np.ones(2),)); opt.global_step
    1
"""
from .adagrad import Adagrad
from .adam import Adam, AdamW
from .clip import clip_by_global_norm, global_norm
from .dynamic_lr import (cosine_decay_lr, exponential_decay_lr, inverse_decay_lr,
                         natural_exp_decay_lr, piecewise_constant_lr, polynomial_decay_lr,
                         warmup_lr)
from .lr_schedule import (CosineDecayLR, ExponentialDecayLR, InverseDecayLR,
                          LearningRateSchedule, NaturalExpDecayLR, PolynomialDecayLR,
                          SequentialLR, WarmUpLR)
from .optimizer import Optimizer
from .rmsprop import RMSProp
from .sgd import SGD, Momentum
from .thor import Thor

__all__ = [
    "Optimizer", "SGD", "Momentum", "Thor", "Adam", "AdamW", "RMSProp", "Adagrad",
    "LearningRateSchedule", "ExponentialDecayLR", "NaturalExpDecayLR", "InverseDecayLR",
    "CosineDecayLR", "PolynomialDecayLR", "WarmUpLR", "SequentialLR",
    "piecewise_constant_lr", "exponential_decay_lr", "natural_exp_decay_lr",
    "inverse_decay_lr", "cosine_decay_lr", "polynomial_decay_lr", "warmup_lr",
    "clip_by_global_norm", "global_norm",
]
