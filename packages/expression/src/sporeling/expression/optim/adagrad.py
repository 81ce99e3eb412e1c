"""``Adagrad``: ``sum += g**2; w -= lr * g / (sqrt(sum) + eps)``.

MindSpore's names and default (``accum=0.1``, the accumulator's starting value, PyTorch's
``initial_accumulator_value``); ``eps`` as PyTorch's (MindSpore's kernel has none).
``update_slots=False`` freezes the accumulator.

    >>> import numpy as np
    >>> w = np.array([1.0])
    >>> _ = Adagrad([w], accum=0.0, learning_rate=0.5)((np.array([3.0]),))
    >>> np.round(w, 6)
    array([0.5])
"""
from __future__ import annotations

import numpy as np

from . import _math as fm
from .optimizer import Optimizer

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    """Adaptive gradient (MindSpore's ``nn.Adagrad``)."""

    def __init__(self, params, accum: float = 0.1, learning_rate=0.001,
                 update_slots: bool = True, loss_scale: float = 1.0,
                 weight_decay: float = 0.0, eps: float = 1e-10):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if accum < 0:
            raise ValueError(f"{type(self).__name__}: accum must be >= 0, got {accum}")
        if eps < 0:
            raise ValueError(f"{type(self).__name__}: eps must be >= 0, got {eps}")
        self.accum, self.update_slots, self.eps = float(accum), bool(update_slots), float(eps)

    def _init_state(self, w):
        return {"sum": np.full_like(w, self.accum)}

    def _update(self, w, g, state, lr, weight_decay):
        total, new = state["sum"], {}
        if self.update_slots:
            total = new["sum"] = total + g * g
        return w - lr * (g / (fm.sqrt(total) + self.eps)), new
