"""2.10's other experimental optimizers: ``Adadelta``, ``Adagrad``, ``Adamax``, ``ASGD``,
``NAdam``, ``RAdam``, ``RMSprop``, ``Rprop``, with MindSpore's signatures and defaults and
PyTorch's numerics (which 2.10's follow). Each is a ``param_groups`` front (``optimizer.
_Built``) over a Sporeling optimizer (``_rules``): a class here only names its
hyperparameters, what each may be, and how they map onto that optimizer's arguments.
``weight_decay`` is L2 added to the gradient, on every parameter of the group; ``maximize``
(where 2.10 has it) steps along the gradient.
"""
from __future__ import annotations

from . import _rules
from .optimizer import _Built

__all__ = ["Adadelta", "Adagrad", "Adamax", "ASGD", "NAdam", "RAdam", "RMSprop", "Rprop"]

_DECAY = {"weight_decay": "[0, inf)"}
_BETAS = {"betas": ("[0, 1)", "[0, 1)"), "eps": "(0, inf)", **_DECAY}
_MAXIMIZE = {"maximize": "bool"}


def _adam_family(hyper: dict) -> dict:
    return dict(betas=tuple(hyper["betas"]), eps=hyper["eps"])


class Adadelta(_Built):
    """``Adadelta(params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0.0, *, maximize=False)``:
    ``v = rho v + (1 - rho) g^2``; ``d = sqrt(u + eps) / sqrt(v + eps) g``; ``u = rho u +
    (1 - rho) d^2``; ``w -= lr d``."""

    _inner = _rules.Adadelta
    _HYPER = {"rho": "[0, 1]", "eps": "[0, inf)", **_DECAY, **_MAXIMIZE}

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0.0, *,
                 maximize=False):
        super().__init__(params, dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay,
                                      maximize=maximize))

    def _arguments(self, hyper):
        return dict(rho=hyper["rho"], epsilon=hyper["eps"])


class Adagrad(_Built):
    """``Adagrad(params, lr=1e-2, lr_decay=0.0, weight_decay=0.0, initial_accumulator_value=
    0.0, eps=1e-10, *, maximize=False)``: ``s += g^2``; ``w -= lr / (1 + (t - 1) lr_decay)
    * g / (sqrt(s) + eps)``, ``s`` starting at ``initial_accumulator_value``."""

    _inner = _rules.Adagrad
    _HYPER = {"lr_decay": "[0, inf)", "initial_accumulator_value": "[0, inf)",
              "eps": "[0, inf)", **_DECAY, **_MAXIMIZE}

    def __init__(self, params, lr=1e-2, lr_decay=0.0, weight_decay=0.0,
                 initial_accumulator_value=0.0, eps=1e-10, *, maximize=False):
        super().__init__(params, dict(lr=lr, lr_decay=lr_decay, weight_decay=weight_decay,
                                      initial_accumulator_value=initial_accumulator_value,
                                      eps=eps, maximize=maximize))

    def _arguments(self, hyper):
        return dict(lr_decay=hyper["lr_decay"], accum=hyper["initial_accumulator_value"],
                    eps=hyper["eps"])


class Adamax(_Built):
    """``Adamax(params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, *,
    maximize=False)``: ``u = max(beta2 u, |g| + eps)``; ``w -= lr / (1 - beta1^t) m / u``."""

    _inner = _rules.Adamax
    _HYPER = {**_BETAS, **_MAXIMIZE}

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, *,
                 maximize=False):
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                                      maximize=maximize))

    _arguments = staticmethod(_adam_family)


class ASGD(_Built):
    """``ASGD(params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0.0,
    maximize=False)``: ``w = w (1 - lambd eta) - eta g``, ``eta = lr / (1 + lambd lr t)^
    alpha`` (``lr`` on the first step); the average ``ax`` of the weights from step ``t0``."""

    _inner = _rules.ASGD
    _HYPER = {"lambd": "[0, inf)", "alpha": "(-inf, inf)", "t0": "(-inf, inf)", **_DECAY,
              **_MAXIMIZE}

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0.0,
                 maximize=False):
        super().__init__(params, dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0,
                                      weight_decay=weight_decay, maximize=maximize))

    def _arguments(self, hyper):
        return dict(lambd=hyper["lambd"], alpha=hyper["alpha"], t0=hyper["t0"])


class NAdam(_Built):
    """``NAdam(params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
    momentum_decay=4e-3)`` (2.10's has no ``maximize``): Adam with Nesterov momentum,
    ``mu_t = beta1 (1 - 0.96^(t momentum_decay) / 2)``."""

    _inner = _rules.NAdam
    _HYPER = {**_BETAS, "momentum_decay": "[0, inf)"}

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
                 momentum_decay=4e-3):
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                                      momentum_decay=momentum_decay))

    def _arguments(self, hyper):
        return dict(_adam_family(hyper), momentum_decay=hyper["momentum_decay"])


class RAdam(_Built):
    """``RAdam(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0)`` (2.10's
    has no ``maximize``): Adam's step rectified by ``r_t`` once ``rho_t > 5``, plain
    momentum SGD (``lr m_hat``) before."""

    _inner = _rules.RAdam
    _HYPER = _BETAS

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0):
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay))

    _arguments = staticmethod(_adam_family)


class RMSprop(_Built):
    """``RMSprop(params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0.0, momentum=0.0,
    centered=False, maximize=False)``: ``v = alpha v + (1 - alpha) g^2``; ``d = sqrt(v) +
    eps`` (centered: ``sqrt(v - a^2) + eps``, ``a`` the mean gradient); ``b = momentum b +
    g / d``, ``w -= lr b`` (no momentum: ``w -= lr g / d``)."""

    _inner = _rules.RMSprop
    _HYPER = {"alpha": "[0, 1)", "eps": "(0, inf)", "momentum": "[0, inf)",
              "centered": "bool", **_DECAY, **_MAXIMIZE}

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0.0, momentum=0.0,
                 centered=False, maximize=False):
        super().__init__(params, dict(lr=lr, alpha=alpha, eps=eps, weight_decay=weight_decay,
                                      momentum=momentum, centered=centered,
                                      maximize=maximize))

    def _arguments(self, hyper):
        return dict(decay=hyper["alpha"], momentum=hyper["momentum"], epsilon=hyper["eps"],
                    centered=hyper["centered"])


class Rprop(_Built):
    """``Rprop(params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *, maximize=False)``:
    per-element step sizes (``lr`` at first) grow by ``etas[1]`` while the gradient keeps
    its sign and shrink by ``etas[0]`` when it flips (that step then skips), within
    ``step_sizes``; ``w -= sign(g) step``. No ``weight_decay``, as 2.10's."""

    _inner = _rules.Rprop
    _HYPER = {"etas": ("(0, 1)", "(1, inf)"), "step_sizes": ("[0, inf)", "[0, inf)"),
              **_MAXIMIZE}

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *,
                 maximize=False):
        super().__init__(params, dict(lr=lr, etas=etas, step_sizes=step_sizes,
                                      maximize=maximize))

    def _arguments(self, hyper):
        return dict(etas=tuple(hyper["etas"]), step_sizes=tuple(hyper["step_sizes"]))
