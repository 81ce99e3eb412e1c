"""The training loop every recipe shares: seeded batches, Adam with a cosine schedule,
optional gradient clipping; PyNative, one model at a time."""
from __future__ import annotations

import sys
import time
from typing import Callable, Iterable

import numpy as np

import sporeling.expression as sx

__all__ = ["fit", "batches", "Recipe"]


class Recipe:
    """What ``recipes.train`` needs of a model: how to train it and how to score it.

    ``train(net, seed)`` returns nothing (it updates ``net``); ``evaluate(net)`` returns the
    recorded metrics (a dict of floats), deterministic for given weights.
    """

    def __init__(self, train: Callable, evaluate: Callable, data: str, metric: str):
        self.train, self.evaluate, self.data, self.metric = train, evaluate, data, metric


def batches(n: int, batch_size: int, rng: np.random.Generator) -> Iterable[np.ndarray]:
    """Index batches over ``n`` samples, reshuffled every epoch, forever."""
    while True:
        order = rng.permutation(n)
        for i in range(0, n - batch_size + 1, batch_size):
            yield order[i:i + batch_size]


def fit(net, loss_of: Callable, feed: Iterable[tuple], *, steps: int, lr: float,
        weight_decay: float = 0.0, clip: float | None = None, log_every: int = 0) -> float:
    """``steps`` Adam steps (cosine decay from ``lr`` to 2% of it) on ``loss_of(*batch)``
    for the batches ``feed`` yields; returns the mean loss of the last 10% of steps."""
    params = net.trainable_params()
    schedule = sx.nn.cosine_decay_lr(0.02 * lr, lr, steps, steps, 1)
    optimizer = (sx.nn.AdamW(params, learning_rate=schedule, weight_decay=weight_decay)
                 if weight_decay else sx.nn.Adam(params, learning_rate=schedule))
    step_fn = sx.value_and_grad(loss_of, None, params)
    net.set_train(True)
    losses, start = [], time.perf_counter()
    for step, batch in zip(range(steps), feed):
        loss, grads = step_fn(*batch)
        if clip is not None:
            grads = sx.nn.clip_by_global_norm(grads, clip)
        optimizer(grads)
        losses.append(float(loss.asnumpy()))
        if not np.isfinite(losses[-1]):
            raise FloatingPointError(f"training diverged: loss {losses[-1]} at step {step}")
        if log_every and (step + 1) % log_every == 0:
            print(f"  step {step + 1}/{steps}: loss {np.mean(losses[-log_every:]):.4f} "
                  f"({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    net.set_train(False)
    return float(np.mean(losses[-max(1, steps // 10):]))
