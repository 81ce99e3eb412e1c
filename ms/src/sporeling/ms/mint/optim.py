"""``ms.mint.optim``: PyTorch's optimizer signatures (MindSpore 2.10's ``mint.optim``) over
sporeling's optimizers, whose numerics are PyTorch's (``sporeling.expression.optim``):

* ``SGD``: ``g += weight_decay * w``; momentum buffer ``b = g`` on the first step, then
  ``b = momentum * b + (1 - dampening) * g``; ``nesterov``: ``g + momentum * b``.
* ``Adam``: L2 ``weight_decay`` added to the gradient; bias-corrected moments,
  ``w -= lr / bc1 * m / (sqrt(v) / sqrt(bc2) + eps)`` (``amsgrad``: the running max of v).
* ``AdamW``/``FusedAdamW``: ``w *= 1 - lr * weight_decay``, then Adam's step.

As in PyTorch, ``weight_decay`` applies to every parameter (``ms.nn``'s optimizers skip
``beta``/``gamma`` names); parameter groups take ``params``, ``lr`` and ``weight_decay``;
``maximize=True`` steps along the gradient. ``optimizer(grads)`` updates the parameters.
"""
from __future__ import annotations

from sporeling.expression import ops as _sx_ops
from sporeling.expression.optim import SGD as _SGD, Adam as _Adam, AdamW as _AdamW

from ..nn.optimizer import Optimizer as _Optimizer

__all__ = ["SGD", "Adam", "AdamW", "FusedAdamW"]


def _groups(params):
    """PyTorch's ``params``: parameters (one group, so that weight decay reaches all) or
    groups."""
    if isinstance(params, dict):
        return [params]
    params = list(params)
    return params if params and isinstance(params[0], dict) else [{"params": params}]


class _Maximize:
    def __call__(self, gradients):
        if self.maximize:
            gradients = tuple(None if g is None else _sx_ops.neg(g) for g in gradients)
        return super().__call__(gradients)


class SGD(_Maximize, _SGD, _Optimizer):
    """``SGD(params, lr, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
    maximize=False)``."""

    def __init__(self, params, lr, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False):
        super().__init__(_groups(params), lr, momentum, dampening, weight_decay, nesterov)
        self.maximize = bool(maximize)


class Adam(_Maximize, _Adam, _Optimizer):
    """``Adam(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False,
    *, maximize=False)``."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
                 amsgrad=False, *, maximize=False):
        super().__init__(_groups(params), lr, betas[0], betas[1], eps, weight_decay,
                         use_amsgrad=amsgrad)
        self.maximize = bool(maximize)


class AdamW(_Maximize, _AdamW, _Optimizer):
    """``AdamW(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
    amsgrad=False, *, maximize=False)``."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, maximize=False):
        super().__init__(_groups(params), lr, betas[0], betas[1], eps, weight_decay,
                         use_amsgrad=amsgrad)
        self.maximize = bool(maximize)


class FusedAdamW(AdamW):
    """``AdamW`` (MindSpore's fused kernel of the same update)."""
