"""The pieces both hand-written references share: the loss and the optimiser step."""
from __future__ import annotations

import numpy as np


def cross_entropy(logits: np.ndarray, labels: np.ndarray) -> tuple[float, np.ndarray]:
    """Mean softmax cross-entropy and its gradient with respect to ``logits``."""
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    n = logits.shape[0]
    loss = -log_probs[np.arange(n), labels].mean()
    g = np.exp(log_probs)
    g[np.arange(n), labels] -= 1
    g /= n
    return float(loss), g


def sgd_momentum(params, velocity, grads, lr: float, momentum: float) -> None:
    """PyTorch's SGD with momentum (no dampening), in place."""
    for p, v, g in zip(params, velocity, grads):
        v *= momentum
        v += g
        p -= lr * v
