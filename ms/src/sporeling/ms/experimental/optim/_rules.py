"""The Sporeling optimizers the experimental ones run, with PyTorch's numerics.

Sporeling's own where they are PyTorch's already: ``ms.nn``'s ``Adadelta``, ``ASGD`` and
``Rprop``, ``sporeling.expression``'s ``RMSProp`` (``eps`` outside the square root, ``lr``
outside the momentum buffer) and ``Adagrad`` (here with PyTorch's ``lr_decay``:
``lr / (1 + (t - 1) lr_decay)``). The Adam family -- ``Adamax``, ``NAdam``, ``RAdam`` --
is ``sporeling.expression``'s ``Adam`` (its checks and its ``step``/``m``/``v`` state) with
PyTorch's step for each (``ms.nn.AdaMax`` is MindSpore's kernel: ``eps`` outside the max):

* Adamax: ``u = max(beta2 u, |g| + eps)``; ``w -= lr / (1 - beta1^t) * m / u``.
* NAdam: ``mu_t = beta1 (1 - 0.96^(t psi) / 2)`` (``psi`` the momentum decay), their
  running product ``P_t``; ``w -= lr (1 - mu_t) / (1 - P_t) g / d + lr mu_{t+1} / (1 -
  P_t mu_{t+1}) m / d``, ``d = sqrt(v / (1 - beta2^t)) + eps``.
* RAdam: ``rho_t = rho_inf - 2 t beta2^t / (1 - beta2^t)``; past 5 the rectified step
  ``lr m_hat r_t sqrt(1 - beta2^t) / (sqrt(v) + eps)``, else ``lr m_hat``.

Every update is written once with operators and ``_math``'s functions, so it runs on NumPy
arrays eagerly and on Tensors inside a compiled step; the per-step scalars (bias
corrections, ``mu``, ``rho``) in float64, cast to the weight's dtype where they meet it.
"""
from __future__ import annotations

import numpy as np

from sporeling.expression.optim import Adam as _SxAdam, RMSProp as _SxRMSProp
from sporeling.expression.optim import _math as fm

from ... import nn
from ...mint.optim import _Maximize
from ...nn.optimizer import Optimizer as _MsOptimizer

__all__ = ["Adadelta", "Adagrad", "Adamax", "ASGD", "NAdam", "RAdam", "RMSprop", "Rprop"]


class Adadelta(_Maximize, nn.Adadelta):
    """``ms.nn.Adadelta`` (PyTorch's update already)."""


class ASGD(_Maximize, nn.ASGD):
    """``ms.nn.ASGD`` (PyTorch's: ``eta`` is ``lr`` on the first step, then ``lr / (1 +
    lambd lr t)^alpha``; the average ``ax`` from step ``t0`` on)."""


class Rprop(_Maximize, nn.Rprop):
    """``ms.nn.Rprop`` (PyTorch's: the step sizes start at ``lr``)."""


class RMSprop(_Maximize, _SxRMSProp, _MsOptimizer):
    """``sporeling.expression``'s ``RMSProp`` (``decay`` is PyTorch's ``alpha``)."""


class Adagrad(_Maximize, nn.Adagrad):
    """``ms.nn.Adagrad`` (``accum`` is PyTorch's ``initial_accumulator_value``) with
    ``lr_decay``: step ``t`` uses ``lr / (1 + (t - 1) lr_decay)``."""

    def __init__(self, params, learning_rate, lr_decay=0.0, accum=0.0, eps=1e-10,
                 weight_decay=0.0):
        super().__init__(params, accum=accum, learning_rate=learning_rate, eps=eps,
                         weight_decay=weight_decay)
        self.lr_decay = float(lr_decay)

    def _init_state(self, w):
        state = super()._init_state(w)
        if self.lr_decay:
            state["step"] = np.zeros((), np.int64)
        return state

    def _update(self, w, g, state, lr, weight_decay):
        if not self.lr_decay:
            return super()._update(w, g, state, lr, weight_decay)
        t = state["step"]
        lr = (lr / (1.0 + self.lr_decay * t.astype(np.float64))).astype(w.dtype)
        new_w, new = super()._update(w, g, state, lr, weight_decay)
        return new_w, {**new, "step": t + 1}


class _AdamFamily(_Maximize, _SxAdam, _MsOptimizer):
    """Adam's checks and state (``step``, ``m``, ``v``); each member writes its step."""

    def __init__(self, params, learning_rate, betas=(0.9, 0.999), eps=1e-8,
                 weight_decay=0.0):
        super().__init__(params, learning_rate, betas[0], betas[1], eps, weight_decay)

    def _moments(self, g, state):
        """The new step, first and second moments, and the step as a float64 scalar."""
        b1, b2 = self.beta1, self.beta2
        t = state["step"] + 1
        m = state["m"] * b1 + (1.0 - b1) * g
        v = state["v"] * b2 + (1.0 - b2) * (g * g)
        return t, m, v, t.astype(np.float64)


class Adamax(_AdamFamily):
    """PyTorch's Adamax (``v`` holds the infinity norm ``u``)."""

    def _update(self, w, g, state, lr, weight_decay):
        b1 = self.beta1
        t = state["step"] + 1
        m = state["m"] * b1 + (1.0 - b1) * g
        u = fm.maximum(state["v"] * self.beta2, abs(g) + self.eps)
        step = (lr / (1.0 - b1 ** t.astype(np.float64))).astype(w.dtype)
        return w - step * (m / u), {"step": t, "m": m, "v": u}


class NAdam(_AdamFamily):
    """PyTorch's NAdam (L2 ``weight_decay``), ``momentum_decay`` its ``psi``."""

    def __init__(self, params, learning_rate, betas=(0.9, 0.999), eps=1e-8,
                 weight_decay=0.0, momentum_decay=4e-3):
        super().__init__(params, learning_rate, betas, eps, weight_decay)
        if not momentum_decay >= 0:
            raise ValueError(f"NAdam: momentum_decay must be >= 0, got {momentum_decay}")
        self.momentum_decay = float(momentum_decay)

    def _init_state(self, w):
        return {**super()._init_state(w), "mu_product": np.ones((), np.float64)}

    def _update(self, w, g, state, lr, weight_decay):
        t, m, v, tf = self._moments(g, state)
        b1, psi = self.beta1, self.momentum_decay
        mu = b1 * (1.0 - 0.5 * 0.96 ** (tf * psi))
        mu_next = b1 * (1.0 - 0.5 * 0.96 ** ((tf + 1.0) * psi))
        product = state["mu_product"] * mu
        denom = fm.sqrt(v / (1.0 - self.beta2 ** tf).astype(w.dtype)) + self.eps
        on_g = (lr * (1.0 - mu) / (1.0 - product)).astype(w.dtype)
        on_m = (lr * mu_next / (1.0 - product * mu_next)).astype(w.dtype)
        new_w = w - on_g * (g / denom) - on_m * (m / denom)
        return new_w, {"step": t, "m": m, "v": v, "mu_product": product}


class RAdam(_AdamFamily):
    """PyTorch's RAdam (L2 ``weight_decay``)."""

    def _update(self, w, g, state, lr, weight_decay):
        t, m, v, tf = self._moments(g, state)
        b2 = self.beta2
        bc2 = 1.0 - b2 ** tf
        rho_inf = 2.0 / (1.0 - b2) - 1.0
        rho = rho_inf - 2.0 * tf * b2 ** tf / bc2
        rectified = rho > 5.0
        # the rectification's square, 1 where it is not used (it may be negative there)
        square = fm.where(rectified, (rho - 4.0) * (rho - 2.0) * rho_inf /
                          ((rho_inf - 4.0) * (rho_inf - 2.0) * rho), 1.0)
        plain = m * (lr / (1.0 - self.beta1 ** tf)).astype(w.dtype)
        scale = (fm.sqrt(square) * fm.sqrt(bc2)).astype(w.dtype)
        adapted = plain * scale / (fm.sqrt(v) + self.eps)
        return w - fm.where(rectified, adapted, plain), {"step": t, "m": m, "v": v}
