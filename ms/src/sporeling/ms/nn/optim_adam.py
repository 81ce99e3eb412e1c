"""Adam-family optimizers of ``ms.nn`` with MindSpore's numerics (update rules written with
ops on the ``sporeling.expression`` ``Optimizer`` base, so they run eagerly and compile into a
Graph-mode step alike: parameter groups, ``weight_decay`` filtering of ``beta``/``gamma``
names, ``loss_scale``, dynamic learning rates).

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

import sporeling.expression as sx

from .optimizer import Optimizer

ops = sx.ops

__all__ = ["Adam", "AdamWeightDecay", "AdaMax", "LazyAdam", "Lamb"]


def _check_betas(name, beta1, beta2, eps):
    for label, beta in (("beta1", beta1), ("beta2", beta2)):
        if not 0.0 < beta < 1.0:
            raise ValueError(f"{name}: {label} must be in (0, 1), got {beta}")
    if eps <= 0:
        raise ValueError(f"{name}: eps must be > 0, got {eps}")


def _norm(x):
    return ops.sqrt((x * x).sum())


class _Moments(Optimizer):
    def __init__(self, params, learning_rate, beta1, beta2, eps, weight_decay, loss_scale):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        _check_betas(type(self).__name__, beta1, beta2, eps)
        self.beta1, self.beta2, self.eps = float(beta1), float(beta2), float(eps)

    def _init_state(self, w):
        return {"step": np.zeros((), np.int64), "m": np.zeros_like(w), "v": np.zeros_like(w)}

    def _moments(self, g, state):
        """``{"step", "m", "v"}`` after this step (the new state)."""
        b1, b2 = self.beta1, self.beta2
        return {"step": state["step"] + 1, "m": b1 * state["m"] + (1.0 - b1) * g,
                "v": b2 * state["v"] + (1.0 - b2) * (g * g)}

    def _powers(self, t):
        """``(1 - beta1**t, 1 - beta2**t)``, in float64 as MindSpore's scalar math."""
        tf = t.astype(np.float64)
        return (1.0 - self.beta1 ** tf), (1.0 - self.beta2 ** tf)


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

    def _init_state(self, w):
        state = super()._init_state(w)
        if self.use_amsgrad:
            state["v_max"] = np.zeros_like(w)
        return state

    def _update(self, w, g, state, lr, weight_decay):
        new = self._moments(g, state)
        m, v = new["m"], new["v"]
        if self.use_amsgrad:
            v = new["v_max"] = ops.maximum(state["v_max"], v)
        bc1, bc2 = self._powers(new["step"])
        lr_t = (lr * ops.sqrt(bc2) / bc1).astype(w.dtype)
        direction = (self.beta1 * m + (1.0 - self.beta1) * g) if self.use_nesterov else m
        return w - lr_t * direction / (ops.sqrt(v) + self.eps), new


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
        new = self._moments(g, state)
        update = new["m"] / (ops.sqrt(new["v"]) + self.eps)
        if weight_decay:
            update = update + weight_decay * w
        return w - lr * update, new


class AdaMax(_Moments):
    """``m = b1 m + (1 - b1) g``, ``v = max(b2 v, |g|)``, ``w -= lr / (1 - b1^t) * m /
    (v + eps)``."""

    def __init__(self, params, learning_rate=0.001, beta1=0.9, beta2=0.999, eps=1e-08,
                 weight_decay=0.0, loss_scale=1.0):
        super().__init__(params, learning_rate, beta1, beta2, eps, weight_decay, loss_scale)

    def _update(self, w, g, state, lr, weight_decay):
        t = state["step"] + 1
        m = self.beta1 * state["m"] + (1.0 - self.beta1) * g
        v = ops.maximum(self.beta2 * state["v"], ops.abs(g))
        bc1, _ = self._powers(t)
        return w - (lr / bc1).astype(w.dtype) * m / (v + self.eps), {"step": t, "m": m, "v": v}


class Lamb(_Moments):
    """LAMB: ``r = m_hat / (sqrt(v_hat) + eps) + weight_decay * w``; ``w -= lr * trust * r``
    with ``trust = min(||w|| / ||r||, 10)`` (1 when either norm is 0)."""

    _decoupled_weight_decay = True

    def __init__(self, params, learning_rate, beta1=0.9, beta2=0.999, eps=1e-6,
                 weight_decay=0.0):
        super().__init__(params, learning_rate, beta1, beta2, eps, weight_decay, 1.0)

    def _update(self, w, g, state, lr, weight_decay):
        new = self._moments(g, state)
        bc1, bc2 = self._powers(new["step"])
        m_hat = new["m"] / bc1.astype(w.dtype)
        v_hat = new["v"] / bc2.astype(w.dtype)
        update = m_hat / (ops.sqrt(v_hat) + self.eps)
        if weight_decay:
            update = update + weight_decay * w
        w_norm, u_norm = _norm(w), _norm(update)
        trust = ops.where(ops.logical_and(w_norm > 0, u_norm > 0), w_norm / u_norm, 1.0)
        # MindSpore clips the ratio to [0, 10]
        return w - lr * ops.minimum(trust, 10.0) * update, new
