"""``DPOptimizer``: DP-SGD around any Sporeling optimiser (SGD, Momentum, Adam...).

Each step: per-sample gradients (``vmap``; in closed form for Dense/activation-only
networks, whose clipping then never forms them -- "ghost clipping"), each clipped to L2 norm ``max_grad_norm`` over all
parameters together, summed, Gaussian noise ``N(0, (noise_multiplier · max_grad_norm)²)``
added per coordinate, divided by the *expected* batch size (Poisson batches vary in size;
dividing by the real size would leak it), then handed to the wrapped optimiser.
"""
from __future__ import annotations

import numpy as np

from .errors import check_positive
from .per_sample import dense_factors, per_sample_grads
from .per_sample_dense import ghost_clipped_sum

__all__ = ["DPOptimizer", "clip_and_noise"]


def clip_and_noise(grads, max_grad_norm: float, noise_multiplier: float,
                   expected_batch_size: float, rng: np.random.Generator):
    """Per-sample ``grads`` (each ``(B, ...)``) → one private gradient per parameter."""
    b = len(grads[0])
    sq = np.zeros(b, np.float64)
    for g in grads:
        sq += np.square(g.reshape(b, -1), dtype=np.float64).sum(axis=1)
    factor = np.minimum(1.0, max_grad_norm / (np.sqrt(sq) + 1e-12))
    summed = [np.tensordot(factor.astype(g.dtype), g, axes=(0, 0)) for g in grads]
    return add_noise(summed, max_grad_norm, noise_multiplier, expected_batch_size, rng)


def add_noise(summed, max_grad_norm: float, noise_multiplier: float,
              expected_batch_size: float, rng: np.random.Generator):
    """Clipped sums → ``(sum + N(0, (σ·C)²)) / expected batch size`` per parameter."""
    out = []
    for s in summed:
        noise = rng.normal(0.0, noise_multiplier * max_grad_norm, size=s.shape)
        out.append(((s + noise) / expected_batch_size).astype(s.dtype))
    return tuple(out)


class DPOptimizer:
    """DP-SGD steps for ``net`` with ``loss_fn(logits, labels)``, updating through
    ``optimizer`` (whose parameters must be ``net``'s trainable ones, in that order).

        opt = DPOptimizer(sx.optim.SGD(net.trainable_params(), 0.5), net, loss_fn,
                          noise_multiplier=1.1, max_grad_norm=1.0, expected_batch_size=64)
        loss = opt.step(x_batch, y_batch)       # a Poisson batch, any size (0 too)

    ``steps`` counts the private steps taken (what the accountant composes).
    """

    def __init__(self, optimizer, net, loss_fn, noise_multiplier: float,
                 max_grad_norm: float, expected_batch_size: float, seed: int | None = None):
        self.noise_multiplier = check_positive(noise_multiplier, "noise_multiplier",
                                               "DPOptimizer", allow_zero=True)
        self.max_grad_norm = check_positive(max_grad_norm, "max_grad_norm", "DPOptimizer")
        self.expected_batch_size = check_positive(expected_batch_size, "expected_batch_size",
                                                  "DPOptimizer")
        self.optimizer, self.net, self.loss_fn = optimizer, net, loss_fn
        self.params = tuple(optimizer.parameters)
        self.steps = 0
        self._rng = np.random.default_rng(seed)

    def private_grads(self, x, y):
        """``(mean loss of the batch, private gradients)`` without updating."""
        x, y = np.asarray(getattr(x, "_data", x)), np.asarray(getattr(y, "_data", y))
        fast = dense_factors(self.net, self.loss_fn, x, y, self.params) \
            if len(x) == len(y) else None
        if fast is not None:  # Dense-only net: clip without forming per-sample gradients
            summed = ghost_clipped_sum(fast[1], self.max_grad_norm)
            private = add_noise(summed, self.max_grad_norm, self.noise_multiplier,
                                self.expected_batch_size, self._rng)
            return float(fast[0].mean()), private
        losses, grads = per_sample_grads(self.net, self.loss_fn, x, y, self.params)
        if len(losses) == 0:  # an empty Poisson batch still gets (pure) noise
            grads = tuple(np.zeros((1,) + tuple(p.shape), np.float32) for p in self.params)
        private = clip_and_noise(grads, self.max_grad_norm, self.noise_multiplier,
                                 self.expected_batch_size, self._rng)
        return (float(losses.mean()) if len(losses) else float("nan")), private

    def step(self, x, y) -> float:
        """One DP-SGD step on the batch; returns its mean loss (nan for an empty batch)."""
        loss, grads = self.private_grads(x, y)
        self.optimizer(grads)
        self.steps += 1
        return loss

    def __getattr__(self, name):  # learning rate, global_step... of the wrapped optimiser
        if name == "optimizer":
            raise AttributeError(name)
        return getattr(self.optimizer, name)
