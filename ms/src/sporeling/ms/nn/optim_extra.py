"""``AdamOffload`` and ``AdaFactor`` of ``ms.nn`` with MindSpore 2.10's numerics (update
rules on the ``Optimizer`` base, as in ``optim_adam``).

* ``AdamOffload``: MindSpore keeps Adam's moments on the host; Sporeling has one host
  device, so it is ``Adam`` (bias-corrected step, L2 weight decay) with 2.10's signature.
* ``AdaFactor`` (Shazeer & Stern 2018, MindSpore's non-fused kernel): second moments
  factored into row and column averages for parameters of rank >= 2,
  ``beta2_t = 1 - t^-decay_rate``; the update ``g / sqrt(v)`` is clipped to RMS
  ``clip_threshold`` and scaled by the step size ``lr`` (``relative_step``:
  ``min(1e-2, 1/sqrt(t))``, or ``min(1e-6 t, 1/sqrt(t))`` with ``warmup_init``; times
  ``max(eps[1], RMS(w))`` with ``scale_parameter``); ``beta1 > 0`` averages the scaled
  updates; ``weight_decay`` is decoupled: ``w -= weight_decay * lr * w``.
"""
from __future__ import annotations

import numpy as np

import sporeling.expression as sx
from sporeling.core.errors import ArgumentError

from .optim_adam import Adam
from .optimizer import Optimizer

ops = sx.ops

__all__ = ["AdamOffload", "AdaFactor"]


class AdamOffload(Adam):
    """``AdamOffload(params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8,
    use_locking=False, use_nesterov=False, weight_decay=0.0, loss_scale=1.0)``: ``Adam``."""

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8,
                 use_locking=False, use_nesterov=False, weight_decay=0.0, loss_scale=1.0):
        super().__init__(params, learning_rate, beta1, beta2, eps, use_locking, use_nesterov,
                         weight_decay, loss_scale)


def _rms(x):
    return ops.sqrt(ops.mean(x * x))


def _fail(message, expected, got):
    raise ArgumentError(message, op="AdaFactor", expected=expected, got=got)


class AdaFactor(Optimizer):
    """``AdaFactor(params, learning_rate=None, eps=(1e-30, 1e-3), clip_threshold=1.0,
    decay_rate=0.8, beta1=0.9, weight_decay=0.0, scale_parameter=True, relative_step=True,
    warmup_init=False, compression=False, loss_scale=1.0)`` (see the module notes)."""

    _decoupled_weight_decay = True

    def __init__(self, params, learning_rate=None, eps=(1e-30, 1e-3), clip_threshold=1.0,
                 decay_rate=0.8, beta1=0.9, weight_decay=0.0, scale_parameter=True,
                 relative_step=True, warmup_init=False, compression=False, loss_scale=1.0):
        if learning_rate is not None and relative_step:
            _fail("a learning_rate and relative_step=True exclude each other",
                  "learning_rate=None or relative_step=False", learning_rate)
        if learning_rate is None and not relative_step:
            _fail("relative_step=False needs a learning_rate", "a learning rate", None)
        if warmup_init and not relative_step:
            _fail("warmup_init needs relative_step=True", "relative_step=True", relative_step)
        if len(tuple(eps)) != 2 or any(e < 0 for e in eps):
            _fail("eps must be two numbers >= 0 (eps1, eps2)", "(eps1, eps2)", eps)
        if not 0.0 < decay_rate < 1.0:
            _fail("decay_rate must be in (0, 1)", "0 < decay_rate < 1", decay_rate)
        if not 0.0 <= weight_decay < 1.0:
            _fail("weight_decay must be in [0, 1)", "0 <= weight_decay < 1", weight_decay)
        if clip_threshold < 0:
            _fail("clip_threshold must be >= 0", "clip_threshold >= 0", clip_threshold)
        super().__init__(0.0 if learning_rate is None else learning_rate, params,
                         weight_decay, loss_scale)
        # a schedule (not a number) is used as given: no relative step, no parameter scale
        fixed = learning_rate is None or isinstance(learning_rate, (int, float))
        self.eps1, self.eps2 = (float(e) for e in eps)
        self.clip_threshold, self.decay_rate = float(clip_threshold), float(decay_rate)
        self.beta1 = 0.0 if beta1 is None else float(beta1)
        self.decay_all = float(weight_decay)       # MindSpore decays every parameter here
        self.scale_parameter = bool(scale_parameter) and fixed
        self.relative_step = bool(relative_step) and fixed
        self.warmup_init, self.compression = bool(warmup_init), bool(compression)

    def _init_state(self, w):
        state = {"step": np.zeros((), np.int64)}
        if w.ndim >= 2:
            state["row"] = np.zeros(w.shape[:-1], w.dtype)
            state["col"] = np.zeros(w.shape[:-2] + w.shape[-1:], w.dtype)
        else:
            state["sq"] = np.zeros_like(w)
        if self.beta1 > 0:
            state["exp_avg"] = np.zeros_like(w)
        return state

    def _step_size(self, lr, t, w):
        if self.relative_step:
            floor = 1e-6 * t if self.warmup_init else 1e-2
            lr = ops.minimum(floor, 1.0 / ops.sqrt(t))
        lr = ops.cast(lr, w.dtype) if hasattr(lr, "dtype") else lr
        if self.scale_parameter:
            lr = lr * ops.maximum(_rms(w), self.eps2)
        return lr

    def _update(self, w, g, state, lr, weight_decay):
        step = state["step"] + 1
        t = step.astype(np.float64)
        lr = self._step_size(lr, t, w)
        beta2t = (1.0 - t ** (-self.decay_rate)).astype(w.dtype)
        squared = g * g + self.eps1
        new = {"step": step}
        if w.ndim >= 2:
            row = beta2t * state["row"] + (1.0 - beta2t) * ops.mean(squared, -1)
            col = beta2t * state["col"] + (1.0 - beta2t) * ops.mean(squared, -2)
            new["row"], new["col"] = row, col
            r_factor = ops.rsqrt(row / ops.mean(row, -1, keepdims=True))
            c_factor = ops.rsqrt(col)
            update = ops.expand_dims(r_factor, -1) * ops.expand_dims(c_factor, -2) * g
        else:
            new["sq"] = sq = beta2t * state["sq"] + (1.0 - beta2t) * squared
            update = ops.rsqrt(sq) * g
        update = update / ops.maximum(_rms(update) / self.clip_threshold, 1.0) * lr
        if self.beta1 > 0:
            update = new["exp_avg"] = self.beta1 * state["exp_avg"] + (1.0 - self.beta1) * update
        if self.decay_all:
            w = w - self.decay_all * lr * w
        return w - update, new
