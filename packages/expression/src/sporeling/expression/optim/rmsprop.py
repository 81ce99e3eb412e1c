"""``RMSProp`` with MindSpore's argument names and PyTorch's numerics.

``v = decay * v + (1 - decay) * g**2``; centred: ``ga = decay * ga + (1 - decay) * g`` and
``avg = sqrt(v - ga**2) + epsilon``, else ``avg = sqrt(v) + epsilon``; with momentum
``buf = momentum * buf + g / avg; w -= lr * buf``, else ``w -= lr * g / avg``.
MindSpore's kernel differs: ``epsilon`` inside the square root and ``lr`` folded into the
momentum buffer (identical while ``lr`` is constant, up to where epsilon sits).

    >>> import numpy as np
    >>> w = np.array([1.0])
    >>> _ = RMSProp([w], learning_rate=0.01, decay=0.9)((np.array([2.0]),))
    >>> np.round(w, 6)  # 1 - 0.01 * 2 / sqrt(0.1 * 4)
    array([0.968377])
"""
from __future__ import annotations

import numpy as np

from . import _math as fm
from .optimizer import Optimizer

__all__ = ["RMSProp"]


class RMSProp(Optimizer):
    """Root-mean-square propagation (MindSpore's ``nn.RMSProp``; ``decay`` is PyTorch's
    ``alpha``)."""

    def __init__(self, params, learning_rate=0.1, decay: float = 0.9, momentum: float = 0.0,
                 epsilon: float = 1e-10, centered: bool = False, loss_scale: float = 1.0,
                 weight_decay: float = 0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        name = type(self).__name__
        if not 0.0 <= decay < 1.0:
            raise ValueError(f"{name}: decay must be in [0, 1), got {decay}")
        if momentum < 0:
            raise ValueError(f"{name}: momentum must be >= 0, got {momentum}")
        if epsilon <= 0:
            raise ValueError(f"{name}: epsilon must be > 0, got {epsilon}")
        self.decay, self.momentum, self.epsilon = float(decay), float(momentum), float(epsilon)
        self.centered = bool(centered)

    def _init_state(self, w):
        state = {"v": np.zeros_like(w)}
        if self.centered:
            state["g_avg"] = np.zeros_like(w)
        if self.momentum:
            state["buf"] = np.zeros_like(w)
        return state

    def _update(self, w, g, state, lr, weight_decay):
        a = self.decay
        v = state["v"] * a + (1.0 - a) * (g * g)
        new = {"v": v}
        if self.centered:
            ga = new["g_avg"] = state["g_avg"] * a + (1.0 - a) * g
            avg = fm.sqrt(v - ga * ga) + self.epsilon
        else:
            avg = fm.sqrt(v) + self.epsilon
        step = g / avg
        if self.momentum:
            step = new["buf"] = state["buf"] * self.momentum + step
        return w - lr * step, new
