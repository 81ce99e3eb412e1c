"""Other optimizers of ``ms.nn`` with MindSpore's documented update rules (written with ops
on the sporeling ``Optimizer`` base: they run eagerly and compile into a Graph-mode step
alike). ``SGD``, ``Momentum`` and ``Adagrad`` are sporeling.expression's (MindSpore's
numerics already; Adagrad adds a 1e-10 floor), made ``ms.nn.Optimizer`` subclasses here."""
from __future__ import annotations

import numpy as np

import sporeling.expression as sx
from sporeling.expression.optim import SGD as _SGD
from sporeling.expression.optim import Adagrad as _Adagrad
from sporeling.expression.optim import Momentum as _Momentum
from sporeling.expression.optim import Optimizer as _SxOptimizer
from sporeling.expression.optim._arrays import operand
from sporeling.expression.optim.optimizer import decays_at

from .optimizer import Optimizer

ops = sx.ops

__all__ = ["Optimizer", "SGD", "Momentum", "Adagrad", "Adadelta", "ASGD", "FTRL",
           "ProximalAdagrad", "RMSProp", "Rprop", "LARS"]


class SGD(_SGD, Optimizer):
    """MindSpore's ``nn.SGD`` (sporeling's: first step ``v = g``, then ``v = momentum v + (1 -
    dampening) g``; ``nesterov``)."""


class Momentum(_Momentum, Optimizer):
    """MindSpore's ``nn.Momentum``: ``v = momentum v + g``, ``w -= lr v`` (``use_nesterov``)."""


class Adagrad(_Adagrad, Optimizer):
    """MindSpore's ``nn.Adagrad``: ``accum += g^2``, ``w -= lr g / sqrt(accum)``."""


class Adadelta(Optimizer):
    """``acc = rho acc + (1 - rho) g^2``; ``u = sqrt(acc_u + eps) / sqrt(acc + eps) * g``;
    ``acc_u = rho acc_u + (1 - rho) u^2``; ``w -= lr * u``."""

    def __init__(self, params, learning_rate=1.0, rho=0.9, epsilon=1e-6, loss_scale=1.0,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Adadelta: rho must be in [0, 1], got {rho}")
        self.rho, self.epsilon = float(rho), float(epsilon)

    def _init_state(self, w):
        return {"acc": np.zeros_like(w), "acc_u": np.zeros_like(w)}

    def _update(self, w, g, state, lr, weight_decay):
        rho, eps = self.rho, self.epsilon
        acc = rho * state["acc"] + (1 - rho) * g * g
        u = ops.sqrt(state["acc_u"] + eps) / ops.sqrt(acc + eps) * g
        acc_u = rho * state["acc_u"] + (1 - rho) * u * u
        return w - lr * u, {"acc": acc, "acc_u": acc_u}


class ASGD(Optimizer):
    """Averaged SGD: ``w = w (1 - lambd eta) - eta g``; the average ``ax`` follows ``w`` with
    rate ``mu``; then ``eta = lr / (1 + lambd lr t)^alpha``, ``mu = 1 / max(1, t - t0)``."""

    def __init__(self, params, learning_rate=0.1, lambd=1e-4, alpha=0.75, t0=1e6,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        self.lambd, self.alpha, self.t0 = float(lambd), float(alpha), float(t0)

    def _init_state(self, w):
        # eta and mu in float64 (MindSpore's scalar math); eta is lr until the first step
        return {"step": np.zeros((), np.int64), "eta": np.zeros((), np.float64),
                "mu": np.ones((), np.float64), "ax": np.zeros_like(w)}

    def _update(self, w, g, state, lr, weight_decay):
        lr64 = lr.astype(np.float64) if isinstance(lr, sx.Tensor) else lr
        eta = ops.where(state["step"] == 0, lr64, state["eta"])
        w = w * (1.0 - self.lambd * eta).astype(w.dtype) - eta.astype(w.dtype) * g
        mu, ax = state["mu"], state["ax"]
        ax = ops.where(mu == 1, w, ax + (w - ax) * mu.astype(w.dtype))
        t = state["step"] + 1
        tf = t.astype(np.float64)
        return w, {"step": t, "ax": ax,
                   "eta": lr64 / (1.0 + self.lambd * lr64 * tf) ** self.alpha,
                   "mu": 1.0 / ops.maximum(tf - self.t0, 1.0)}


class FTRL(Optimizer):
    """Follow-the-regularized-leader: ``m' = m + g^2``; ``z += g - (m'^-p - m^-p) / lr * w``;
    ``w = (sign(z) l1 - z) / (m'^-p / lr + 2 l2)`` where ``|z| > l1``, else 0 (``p`` is
    ``lr_power``, -0.5 by default)."""

    def __init__(self, params, initial_accum=0.1, learning_rate=0.001, lr_power=-0.5, l1=0.0,
                 l2=0.0, use_locking=False, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if lr_power > 0 or l1 < 0 or l2 < 0 or initial_accum < 0:
            raise ValueError("FTRL: expected lr_power <= 0, l1 >= 0, l2 >= 0, initial_accum "
                             f">= 0; got {lr_power}, {l1}, {l2}, {initial_accum}")
        self.initial_accum, self.lr_power = float(initial_accum), float(lr_power)
        self.l1, self.l2 = float(l1), float(l2)

    def _init_state(self, w):
        return {"m": np.full_like(w, self.initial_accum), "z": np.zeros_like(w)}

    def _update(self, w, g, state, lr, weight_decay):
        p, m = -self.lr_power, state["m"]
        m_new = m + g * g
        z = state["z"] + g - (m_new ** p - m ** p) / lr * w
        new_w = (ops.sign(z) * self.l1 - z) / (m_new ** p / lr + 2.0 * self.l2)
        return ops.where(ops.abs(z) > self.l1, new_w, 0.0), {"m": m_new, "z": z}


class ProximalAdagrad(Optimizer):
    """``acc += g^2``; ``v = w - lr g / sqrt(acc)``; ``w = sign(v) / (1 + lr l2) *
    max(|v| - lr l1, 0)``."""

    def __init__(self, params, accum=0.1, learning_rate=0.001, l1=0.0, l2=0.0,
                 use_locking=False, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.accum, self.l1, self.l2 = float(accum), float(l1), float(l2)

    def _init_state(self, w):
        return {"acc": np.full_like(w, self.accum)}

    def _update(self, w, g, state, lr, weight_decay):
        acc = state["acc"] + g * g
        v = w - lr * g / ops.sqrt(acc)
        return (ops.sign(v) / (1.0 + lr * self.l2) *
                ops.maximum(ops.abs(v) - lr * self.l1, 0.0)), {"acc": acc}


class RMSProp(Optimizer):
    """MindSpore's RMSProp: ``s = decay s + (1 - decay) g^2``; ``m = momentum m + lr g /
    sqrt(s + eps)`` (centered: ``sqrt(s - g_avg^2 + eps)``); ``w -= m``. Note ``eps`` is
    inside the square root and ``lr`` inside the momentum (PyTorch: outside both)."""

    def __init__(self, params, learning_rate=0.1, decay=0.9, momentum=0.0, epsilon=1e-10,
                 use_locking=False, centered=False, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if momentum < 0 or decay < 0 or epsilon <= 0:
            raise ValueError("RMSProp: expected momentum >= 0, decay >= 0, epsilon > 0; got "
                             f"{momentum}, {decay}, {epsilon}")
        self.decay, self.momentum, self.epsilon = float(decay), float(momentum), float(epsilon)
        self.centered = bool(centered)

    def _init_state(self, w):
        return {"s": np.zeros_like(w), "m": np.zeros_like(w), "g_avg": np.zeros_like(w)}

    def _update(self, w, g, state, lr, weight_decay):
        d = self.decay
        new = {"s": d * state["s"] + (1 - d) * g * g}
        denom = new["s"]
        if self.centered:
            new["g_avg"] = d * state["g_avg"] + (1 - d) * g
            denom = denom - new["g_avg"] ** 2
        new["m"] = self.momentum * state["m"] + lr * g / ops.sqrt(denom + self.epsilon)
        return w - new["m"], new


class Rprop(Optimizer):
    """Resilient backprop: per-element step sizes grow by ``etas[1]`` while the gradient keeps
    its sign and shrink by ``etas[0]`` when it flips (that step then skips), clipped to
    ``step_sizes``; ``w -= sign(g) * step``. The first step size is ``learning_rate``."""

    def __init__(self, params, learning_rate=0.1, etas=(0.5, 1.2), step_sizes=(1e-6, 50.0),
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        if not 0 < etas[0] < 1 < etas[1]:
            raise ValueError(f"Rprop: etas must satisfy 0 < etaminus < 1 < etaplus, got {etas}")
        self.etas, self.step_sizes = tuple(etas), tuple(step_sizes)

    def _init_state(self, w):
        # "step": the per-element step sizes, learning_rate until the first step ("count")
        return {"prev": np.zeros_like(w), "step": np.zeros_like(w),
                "count": np.zeros((), np.int64)}

    def _update(self, w, g, state, lr, weight_decay):
        etaminus, etaplus = self.etas
        step = ops.where(state["count"] == 0, lr, state["step"])
        sign = g * state["prev"]
        step = ops.where(sign > 0, step * etaplus,
                         ops.where(sign < 0, step * etaminus, step))
        step = ops.minimum(ops.maximum(step, self.step_sizes[0]), self.step_sizes[1])
        g = ops.where(sign < 0, 0.0, g)
        return w - ops.sign(g) * step, {"prev": g, "step": step,
                                        "count": state["count"] + 1}


def _norm(x):
    return ops.sqrt((x * x).sum())


def _lars_default_filter(param) -> bool:
    name = getattr(param, "name", "") or ""
    return "LayerNorm" not in name and "bias" not in name


class LARS:
    """Layer-wise adaptive rate scaling around ``optimizer``: for parameters passing
    ``lars_filter``, ``g' = trust * (g + wd * w)`` with ``trust = coefficient * ||w|| /
    (||g|| + wd ||w|| + epsilon)`` (1 when a norm is 0; ``use_clip`` caps ``trust / lr`` at 1),
    then ``optimizer(g')``. The wrapped optimizer's weight decay moves into LARS."""

    def __init__(self, optimizer, epsilon=1e-05, coefficient=0.001, use_clip=False,
                 lars_filter=_lars_default_filter):
        if not isinstance(optimizer, _SxOptimizer):
            raise TypeError(f"LARS: expected an nn.Optimizer, got {type(optimizer).__name__}")
        self.optimizer, self.epsilon = optimizer, float(epsilon)
        self.coefficient, self.use_clip = float(coefficient), bool(use_clip)
        # the per-parameter decays the optimizer resolved (groups, beta/gamma filter) move
        # here: LARS adds them before scaling, the optimizer must not add them again
        self._decays = optimizer._decays
        optimizer._decays = tuple(0.0 for _ in optimizer._decays)
        self._apply = tuple(bool(lars_filter(p)) for p in optimizer.parameters)
        self.parameters = optimizer.parameters

    def __call__(self, gradients):
        lr = self.optimizer.get_lr()
        decays = decays_at(self._decays, self.optimizer.global_step)
        out = []
        for i, (p, g) in enumerate(zip(self.optimizer.parameters, gradients)):
            if g is None or not self._apply[i]:
                out.append(g)
                continue
            w, g = operand(p), operand(g)
            wd = decays[i]
            w_norm, g_norm = _norm(w), _norm(g)
            trust = ops.where(ops.logical_and(w_norm > 0, g_norm > 0),
                              self.coefficient * w_norm / (g_norm + wd * w_norm +
                                                           self.epsilon), 1.0)
            if self.use_clip:
                rate = lr[i] if isinstance(lr, tuple) else lr
                trust = ops.minimum(trust / rate, 1.0)
            out.append((trust * (g + wd * w)).astype(g.dtype))
        return self.optimizer(tuple(out))

    construct = __call__
