"""FGSM and PGD (L∞ and L2; random start; targeted and untargeted).

Conventions (CleverHans / MindSpore Armour): ``eps`` the radius of the allowed perturbation,
``eps_iter`` the step of one PGD iteration, ``nb_iter`` the number of iterations, ``norm``
``np.inf`` or 2, ``bounds`` the valid input range ``(low, high)``, ``targeted`` -- when True
the labels given to ``generate`` are the classes to reach (the loss towards them is
decreased); otherwise they are the true classes (the loss is increased).
"""
from __future__ import annotations

import numpy as np

from ._checks import (as_batch, check_bounds, check_eps, check_norm, check_positive_int)
from ._gradients import InputGradient

__all__ = ["FastGradientSignMethod", "ProjectedGradientDescent", "fgsm", "pgd"]

_TINY = 1e-12


def _per_sample_l2(a: np.ndarray) -> np.ndarray:
    """L2 norm of each sample, shaped to broadcast against ``a``."""
    return np.sqrt((a.reshape(len(a), -1) ** 2).sum(1)).reshape((-1,) + (1,) * (a.ndim - 1))


def _step(grad: np.ndarray, norm: float) -> np.ndarray:
    """The unit steepest-ascent step for ``grad`` under ``norm``."""
    if norm == np.inf:
        return np.sign(grad)
    return grad / np.maximum(_per_sample_l2(grad), _TINY)


def _project(delta: np.ndarray, eps: float, norm: float) -> np.ndarray:
    """``delta`` projected onto the ``norm`` ball of radius ``eps``."""
    if norm == np.inf:
        return np.clip(delta, -eps, eps)
    n = _per_sample_l2(delta)
    return delta * np.minimum(1.0, eps / np.maximum(n, _TINY))


class _GradientAttack:
    _op = "attack"

    def __init__(self, network, eps, bounds, norm, targeted, loss_fn):
        self.eps = check_eps(eps, "eps", self._op)
        self.bounds = check_bounds(bounds, self._op)
        self.norm = check_norm(norm, self._op)
        self.targeted = bool(targeted)
        self._grad = InputGradient(network, loss_fn)

    def _ascent(self, x, y):
        """The direction that makes the attack's objective worse for the model."""
        _, g = self._grad.loss_grad(x, y)
        return -g if self.targeted else g


class FastGradientSignMethod(_GradientAttack):
    """One step of size ``eps``: ``x + eps * sign(∇x loss)`` (L∞), or ``x + eps * g/‖g‖``
    (``norm=2``: the fast gradient method), clipped to ``bounds``."""

    _op = "FastGradientSignMethod"

    def __init__(self, network, eps=0.07, bounds=(0.0, 1.0), norm=np.inf, targeted=False,
                 loss_fn=None):
        super().__init__(network, eps, bounds, norm, targeted, loss_fn)

    def generate(self, inputs, labels) -> np.ndarray:
        x, y = as_batch(inputs, labels, self._op)
        adv = x + self.eps * _step(self._ascent(x, y), self.norm)
        return np.clip(adv, *self.bounds).astype(x.dtype)


class ProjectedGradientDescent(_GradientAttack):
    """``nb_iter`` steps of size ``eps_iter``, each projected back onto the ``eps`` ball
    around the input and into ``bounds``; ``rand_init`` starts from a uniform point of the
    ball (L∞) or a uniform direction at a uniform radius (L2), drawn from ``seed``."""

    _op = "ProjectedGradientDescent"

    def __init__(self, network, eps=0.3, eps_iter=0.01, nb_iter=40, norm=np.inf,
                 bounds=(0.0, 1.0), targeted=False, rand_init=True, seed=None, loss_fn=None):
        super().__init__(network, eps, bounds, norm, targeted, loss_fn)
        self.eps_iter = check_eps(eps_iter, "eps_iter", self._op)
        self.nb_iter = check_positive_int(nb_iter, "nb_iter", self._op)
        self.rand_init = bool(rand_init)
        self._rng = np.random.default_rng(seed)

    def _start(self, x):
        if not self.rand_init or self.eps == 0:
            return np.zeros_like(x)
        if self.norm == np.inf:
            return self._rng.uniform(-self.eps, self.eps, x.shape).astype(x.dtype)
        d = self._rng.standard_normal(x.shape)
        radius = self.eps * self._rng.uniform(0, 1, (len(x),) + (1,) * (x.ndim - 1))
        return (d / np.maximum(_per_sample_l2(d), _TINY) * radius).astype(x.dtype)

    def generate(self, inputs, labels) -> np.ndarray:
        x, y = as_batch(inputs, labels, self._op)
        low, high = self.bounds
        adv = np.clip(x + self._start(x), low, high)
        for _ in range(self.nb_iter):
            adv = adv + self.eps_iter * _step(self._ascent(adv, y), self.norm)
            adv = np.clip(x + _project(adv - x, self.eps, self.norm), low, high)
        return adv.astype(x.dtype)


def fgsm(network, inputs, labels, eps=0.07, **kwargs) -> np.ndarray:
    """``FastGradientSignMethod(network, eps, **kwargs).generate(inputs, labels)``."""
    return FastGradientSignMethod(network, eps, **kwargs).generate(inputs, labels)


def pgd(network, inputs, labels, eps=0.3, **kwargs) -> np.ndarray:
    """``ProjectedGradientDescent(network, eps, **kwargs).generate(inputs, labels)``."""
    return ProjectedGradientDescent(network, eps, **kwargs).generate(inputs, labels)
