"""``Adam`` (L2 weight decay, optional AMSGrad) and ``AdamW`` (decoupled decay).

Numerics are PyTorch's: with bias corrections ``bc1 = 1 - beta1**t``, ``bc2 = 1 - beta2**t``,
``w -= lr / bc1 * m / (sqrt(v) / sqrt(bc2) + eps)``. MindSpore's ``Adam`` kernel puts
``eps`` outside the bias correction (``lr * sqrt(bc2) / bc1 * m / (sqrt(v) + eps)``), and its
``AdamWeightDecay`` has no bias correction at all; ``AdamW`` here is PyTorch's.

    >>> import numpy as np
    >>> w = np.array([1.0, -1.0])
    >>> _ = Adam([w], learning_rate=0.1)((np.array([0.5, -2.0]),))
    >>> np.round(w, 6)  # the first Adam step moves each weight by lr against its gradient
    array([ 0.9, -0.9])
"""
from __future__ import annotations

import numpy as np

from . import _math as fm
from .optimizer import Optimizer

__all__ = ["Adam", "AdamW"]


class Adam(Optimizer):
    """Adam (MindSpore's ``nn.Adam`` names; ``weight_decay`` is L2 added to the gradient)."""

    def __init__(self, params, learning_rate=1e-3, beta1: float = 0.9, beta2: float = 0.999,
                 eps: float = 1e-8, weight_decay: float = 0.0, loss_scale: float = 1.0,
                 use_amsgrad: bool = False):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        name = type(self).__name__
        for label, beta in (("beta1", beta1), ("beta2", beta2)):
            if not 0.0 <= beta < 1.0:
                raise ValueError(f"{name}: {label} must be in [0, 1), got {beta}")
        if eps <= 0:
            raise ValueError(f"{name}: eps must be > 0, got {eps}")
        self.beta1, self.beta2, self.eps = float(beta1), float(beta2), float(eps)
        self.use_amsgrad = bool(use_amsgrad)

    def _init_state(self, w):
        state = {"step": np.zeros((), np.int64), "m": np.zeros_like(w), "v": np.zeros_like(w)}
        if self.use_amsgrad:
            state["v_max"] = np.zeros_like(w)
        return state

    def _update(self, w, g, state, lr, weight_decay):
        b1, b2 = self.beta1, self.beta2
        t = state["step"] + 1
        m = state["m"] * b1 + (1.0 - b1) * g
        v = state["v"] * b2 + (1.0 - b2) * (g * g)
        new = {"step": t, "m": m, "v": v}
        if self.use_amsgrad:
            v = new["v_max"] = fm.maximum(state["v_max"], v)
        tf = t.astype(np.float64)  # the bias corrections in float64, cast once
        bc1, bc2 = 1.0 - b1 ** tf, 1.0 - b2 ** tf
        denom = fm.sqrt(v) * (1.0 / fm.sqrt(bc2)).astype(w.dtype) + self.eps
        step = (lr / bc1).astype(w.dtype) * (m / denom)
        return self._decayed(w, lr, weight_decay) - step, new

    def _decayed(self, w, lr, weight_decay):
        return w


class AdamW(Adam):
    """Adam with decoupled weight decay (PyTorch's ``AdamW``): before the Adam step,
    ``w *= 1 - lr * weight_decay``. Default ``weight_decay`` 0.01 as PyTorch's."""

    _decoupled_weight_decay = True

    def __init__(self, params, learning_rate=1e-3, beta1: float = 0.9, beta2: float = 0.999,
                 eps: float = 1e-8, weight_decay: float = 1e-2, loss_scale: float = 1.0,
                 use_amsgrad: bool = False):
        super().__init__(params, learning_rate, beta1, beta2, eps, weight_decay, loss_scale,
                         use_amsgrad)

    def _decayed(self, w, lr, weight_decay):
        if not weight_decay:
            return w
        return w * (1.0 - lr * weight_decay)
