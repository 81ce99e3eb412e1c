"""Adam-family optimizers of ``ms.nn`` with MindSpore's numerics (NumPy updates on the
``sporeling.expression`` ``Optimizer`` base: parameter groups, ``weight_decay`` filtering of
``beta``/``gamma`` names, ``loss_scale``, dynamic learning rates).

MindSpore's numerics, which differ from PyTorch's:

* ``Adam``: ``lr_t = lr * sqrt(1 - beta2^t) / (1 - beta1^t)``, ``w -= lr_t * m / (sqrt(v) +
  eps)`` (eps outside the bias correction); ``weight_decay`` is L2 added to the gradient.
* ``AdamWeightDecay``: no bias correction at all, and decoupled decay inside the step:
  ``w -= lr * (m / (sqrt(v) + eps) + weight_decay * w)`` (PyTorch's AdamW scales ``w`` by
  ``1 - lr * wd`` and bias-corrects); default ``eps`` 1e-6.
* ``Lamb``: bias-corrected Adam direction plus ``weight_decay * w``, scaled by the trust
  ratio ``||w|| / ||update||`` clipped to [0, 10].
"""
from __future__ import annotations

import numpy as np

from .optimizer import Optimizer

__all__ = ["Adam", "AdamWeightDecay", "AdaMax", "LazyAdam", "Lamb"]


def _check_betas(name, beta1, beta2, eps):
    for label, beta in (("beta1", beta1), ("beta2", beta2)):
        if not 0.0 < beta < 1.0:
            raise ValueError(f"{name}: {label} must be in (0, 1), got {beta}")
    if eps <= 0:
        raise ValueError(f"{name}: eps must be > 0, got {eps}")


class _Moments(Optimizer):
    def __init__(self, params, learning_rate, beta1, beta2, eps, weight_decay, loss_scale):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        _check_betas(type(self).__name__, beta1, beta2, eps)
        self.beta1, self.beta2, self.eps = float(beta1), float(beta2), float(eps)

    def _init_state(self, w):
        return {"step": 0, "m": np.zeros_like(w), "v": np.zeros_like(w)}

    def _moments(self, g, state):
        b1, b2 = self.beta1, self.beta2
        state["step"] += 1
        state["m"] = b1 * state["m"] + (1.0 - b1) * g
        state["v"] = b2 * state["v"] + (1.0 - b2) * (g * g)
        return state["m"], state["v"], state["step"]


class Adam(_Moments):
    """``Adam(params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, use_locking=False,
    use_nesterov=False, weight_decay=0.0, loss_scale=1.0, use_amsgrad=False)``."""

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8,
                 use_locking=False, use_nesterov=False, weight_decay=0.0, loss_scale=1.0,
                 use_amsgrad=False, **kwargs):
        super().__init__(params, learning_rate, beta1, beta2, eps, weight_decay, loss_scale)
        if use_nesterov and use_amsgrad:
            raise ValueError("Adam: use_nesterov and use_amsgrad cannot both be True")
        self.use_locking, self.use_nesterov = bool(use_locking), bool(use_nesterov)
        self.use_amsgrad = bool(use_amsgrad)

    def _update(self, w, g, state, lr, weight_decay):
        m, v, t = self._moments(g, state)
        if self.use_amsgrad:
            state["v_max"] = np.maximum(state.get("v_max", v), v)
            v = state["v_max"]
        lr_t = lr * np.sqrt(1.0 - self.beta2 ** t) / (1.0 - self.beta1 ** t)
        direction = (self.beta1 * m + (1.0 - self.beta1) * g) if self.use_nesterov else m
        return w - lr_t * direction / (np.sqrt(v) + self.eps)


class LazyAdam(Adam):
    """Adam that, for sparse (row) gradients, updates only the rows present; gradients here
    are dense, so every row is present and the update is ``Adam``'s."""

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8,
                 use_locking=False, use_nesterov=False, weight_decay=0.0, loss_scale=1.0):
        super().__init__(params, learning_rate, beta1, beta2, eps, use_locking, use_nesterov,
                         weight_decay, loss_scale)


class AdamWeightDecay(_Moments):
    """``AdamWeightDecay(params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-6,
    weight_decay=0.0)``: ``m = b1 m + (1 - b1) g``, ``v = b2 v + (1 - b2) g^2``,
    ``w -= lr * (m / (sqrt(v) + eps) + weight_decay * w)`` -- no bias correction."""

    _decoupled_weight_decay = True

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-6,
                 weight_decay=0.0):
        super().__init__(params, learning_rate, beta1, beta2, eps, weight_decay, 1.0)

    def _update(self, w, g, state, lr, weight_decay):
        m, v, _ = self._moments(g, state)
        update = m / (np.sqrt(v) + self.eps)
        if weight_decay:
            update = update + weight_decay * w
        return w - lr * update


class AdaMax(_Moments):
    """``m = b1 m + (1 - b1) g``, ``v = max(b2 v, |g|)``, ``w -= lr / (1 - b1^t) * m /
    (v + eps)``."""

    def __init__(self, params, learning_rate=0.001, beta1=0.9, beta2=0.999, eps=1e-08,
                 weight_decay=0.0, loss_scale=1.0):
        super().__init__(params, learning_rate, beta1, beta2, eps, weight_decay, loss_scale)

    def _update(self, w, g, state, lr, weight_decay):
        state["step"] += 1
        state["m"] = self.beta1 * state["m"] + (1.0 - self.beta1) * g
        state["v"] = np.maximum(self.beta2 * state["v"], np.abs(g))
        return w - lr / (1.0 - self.beta1 ** state["step"]) * state["m"] / (state["v"] +
                                                                             self.eps)


class Lamb(_Moments):
    """LAMB: ``r = m_hat / (sqrt(v_hat) + eps) + weight_decay * w``; ``w -= lr * trust * r``
    with ``trust = min(||w|| / ||r||, 10)`` (1 when either norm is 0)."""

    _decoupled_weight_decay = True

    def __init__(self, params, learning_rate, beta1=0.9, beta2=0.999, eps=1e-6,
                 weight_decay=0.0):
        super().__init__(params, learning_rate, beta1, beta2, eps, weight_decay, 1.0)

    def _update(self, w, g, state, lr, weight_decay):
        m, v, t = self._moments(g, state)
        m_hat = m / (1.0 - self.beta1 ** t)
        v_hat = v / (1.0 - self.beta2 ** t)
        update = m_hat / (np.sqrt(v_hat) + self.eps)
        if weight_decay:
            update = update + weight_decay * w
        w_norm, u_norm = np.linalg.norm(w), np.linalg.norm(update)
        trust = w_norm / u_norm if w_norm > 0 and u_norm > 0 else 1.0
        return w - lr * min(trust, 10.0) * update  # MindSpore clips the ratio to [0, 10]
