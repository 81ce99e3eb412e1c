"""MLP 784-512-512-10 with ReLU, softmax cross-entropy, SGD with momentum: by hand."""
from __future__ import annotations

import numpy as np

from .common import cross_entropy, sgd_momentum


class NumpyMLP:
    def __init__(self, sizes=(784, 512, 512, 10), lr=0.01, momentum=0.9, seed=0):
        rng = np.random.default_rng(seed)
        self.params = []
        for fan_in, fan_out in zip(sizes[:-1], sizes[1:]):
            bound = 1 / np.sqrt(fan_in)
            self.params += [rng.uniform(-bound, bound, (fan_in, fan_out)).astype(np.float32),
                            np.zeros(fan_out, np.float32)]
        self.velocity = [np.zeros_like(p) for p in self.params]
        self.lr, self.momentum = lr, momentum

    def step(self, x: np.ndarray, labels: np.ndarray) -> float:
        """One training step; returns the mean cross-entropy loss."""
        acts, h = [x], x
        n_layers = len(self.params) // 2
        for i in range(n_layers):
            h = h @ self.params[2 * i] + self.params[2 * i + 1]
            if i < n_layers - 1:
                h = np.maximum(h, 0)
            acts.append(h)
        logits = acts[-1]
        loss, g = cross_entropy(logits, labels)
        grads = [None] * len(self.params)
        for i in reversed(range(n_layers)):
            grads[2 * i] = acts[i].T @ g
            grads[2 * i + 1] = g.sum(axis=0)
            if i > 0:
                g = (g @ self.params[2 * i].T) * (acts[i] > 0)
        sgd_momentum(self.params, self.velocity, grads, self.lr, self.momentum)
        return loss
