"""``SGD`` (with momentum, dampening, Nesterov) and MindSpore's ``Momentum``.

The update is PyTorch's: with ``g`` the gradient plus ``weight_decay * w``,
``buf = g`` on the first step, then ``buf = momentum * buf + (1 - dampening) * g``;
the step direction is ``g + momentum * buf`` (Nesterov) or ``buf``; ``w -= lr * d``.

    >>> import numpy as np
    >>> w = np.array([1.0])
    >>> opt = SGD([w], learning_rate=0.1, momentum=0.9)
    >>> for _ in range(2): _ = opt((np.array([1.0]),))
    >>> w  # 1 - 0.1 * 1 - 0.1 * 1.9
    array([0.71])
"""
from __future__ import annotations

import numpy as np

from . import _math as fm
from .optimizer import Optimizer

__all__ = ["SGD", "Momentum"]


class SGD(Optimizer):
    """Stochastic gradient descent (MindSpore's ``nn.SGD``, PyTorch's ``optim.SGD``)."""

    def __init__(self, params, learning_rate=0.1, momentum: float = 0.0,
                 dampening: float = 0.0, weight_decay: float = 0.0, nesterov: bool = False,
                 loss_scale: float = 1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if momentum < 0:
            raise ValueError(f"{type(self).__name__}: momentum must be >= 0, got {momentum}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError(f"{type(self).__name__}: nesterov needs momentum > 0 and "
                             f"dampening 0, got momentum={momentum}, dampening={dampening}")
        self.momentum, self.dampening, self.nesterov = float(momentum), float(dampening), \
            bool(nesterov)

    def _init_state(self, w):
        if not self.momentum:
            return {}
        return {"buf": np.zeros_like(w), "step": np.zeros((), np.int64)}

    def _update(self, w, g, state, lr, weight_decay):
        mu, new = self.momentum, {}
        if mu:
            buf = state["buf"]
            if self.dampening:  # the first step's buffer is the gradient (PyTorch)
                step = state["step"]
                moved = fm.where(step == 0, g, buf * mu + (1.0 - self.dampening) * g)
                new["step"] = step + 1
            else:  # from the zero buffer, the same without counting steps
                moved = buf * mu + g
            new["buf"] = moved
            g = g + mu * moved if self.nesterov else moved
        return w - lr * g, new


class Momentum(SGD):
    """MindSpore's ``nn.Momentum``: SGD with momentum and no dampening
    (``accum = momentum * accum + g``; ``use_nesterov`` as SGD's ``nesterov``)."""

    def __init__(self, params, learning_rate, momentum: float, weight_decay: float = 0.0,
                 loss_scale: float = 1.0, use_nesterov: bool = False):
        super().__init__(params, learning_rate, momentum=momentum, dampening=0.0,
                         weight_decay=weight_decay, nesterov=use_nesterov,
                         loss_scale=loss_scale)
