"""DeepFool (Moosavi-Dezfooli et al., 2016), L2: linearise the classifier at the current
point, step to the nearest linearised decision boundary, repeat until the label changes;
the total step is scaled by ``1 + overshoot``."""
from __future__ import annotations

import numpy as np

from ._checks import as_batch, check_bounds, check_eps, check_positive_int
from ._gradients import InputGradient

__all__ = ["DeepFool", "deepfool"]


class DeepFool:
    """Untargeted minimal-L2 attack. ``labels`` passed to ``generate`` are the true classes;
    ``candidates`` limits the classes considered to the ``candidates`` highest logits
    (all when None)."""

    _op = "DeepFool"

    def __init__(self, network, num_classes=10, overshoot=0.02, max_iters=50,
                 bounds=(0.0, 1.0), candidates=None):
        self.num_classes = check_positive_int(num_classes, "num_classes", self._op)
        self.overshoot = check_eps(overshoot, "overshoot", self._op)
        self.max_iters = check_positive_int(max_iters, "max_iters", self._op)
        self.bounds = check_bounds(bounds, self._op)
        self.candidates = None if candidates is None else \
            check_positive_int(candidates, "candidates", self._op)
        self._grad = InputGradient(network)

    def _class_grads(self, x):
        """Logits ``(N, C)`` and ``d logit_k / d x`` for every class: ``(C, N, ...)``."""
        eye = np.eye(self.num_classes, dtype=x.dtype)
        grads, logits = [], None
        for k in range(self.num_classes):
            logits, g = self._grad.logit_grad(x, np.broadcast_to(eye[k], (len(x), self.num_classes)))
            grads.append(g)
        return logits, np.stack(grads)

    def generate(self, inputs, labels) -> np.ndarray:
        x, y = as_batch(inputs, labels, self._op)
        rows = np.arange(len(x))
        r_tot = np.zeros_like(x, dtype=np.float64)
        adv = x.copy()
        active = self._grad.logits(x).argmax(-1) == y
        for _ in range(self.max_iters):
            if not active.any():
                break
            logits, grads = self._class_grads(adv)
            active &= logits.argmax(-1) == y
            if not active.any():
                break
            f = logits - logits[rows, y][:, None]                        # (N, C)
            w = grads - grads[y, rows][None]                              # (C, N, ...)
            w_norm = np.sqrt((w.reshape(self.num_classes, len(x), -1) ** 2).sum(-1)).T
            dist = np.abs(f) / np.maximum(w_norm, 1e-12)                 # (N, C)
            dist[rows, y] = np.inf
            if self.candidates is not None:
                order = np.argsort(-logits, axis=1)[:, self.candidates:]
                np.put_along_axis(dist, order, np.inf, axis=1)
            best = dist.argmin(1)
            scale = (dist[rows, best] + 1e-4) / np.maximum(w_norm[rows, best], 1e-12)
            step = w[best, rows] * scale.reshape((-1,) + (1,) * (x.ndim - 1))
            r_tot[active] += step[active]
            adv = np.clip(x + (1 + self.overshoot) * r_tot, *self.bounds).astype(x.dtype)
        return adv


def deepfool(network, inputs, labels, **kwargs) -> np.ndarray:
    """``DeepFool(network, **kwargs).generate(inputs, labels)``."""
    return DeepFool(network, **kwargs).generate(inputs, labels)
