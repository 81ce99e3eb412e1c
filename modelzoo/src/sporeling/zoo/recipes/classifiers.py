"""Recipes for the digits classifiers: the 8x8 digits bundled with scikit-learn (no
download), the zoo's fixed 80/20 split (``load_digits_split(seed=0)``: 1,438 training and
359 test images), cross-entropy, Adam; the metric is the test accuracy."""
from __future__ import annotations

from functools import partial

import numpy as np

import sporeling.expression as sx
from sporeling.expression import ops

from ..datasets import load_digits_split
from .loop import Recipe, batches, fit

__all__ = ["RECIPES", "accuracy"]

SPLIT_SEED = 0  # the data split never moves with the training seed: metrics compare


def accuracy(net, x: np.ndarray, y: np.ndarray, batch_size: int = 512) -> float:
    """Top-1 accuracy of ``net`` (in eval mode) on images ``x`` with labels ``y``."""
    net.set_train(False)
    correct = 0
    with sx.no_grad():
        for i in range(0, len(y), batch_size):
            logits = net(sx.Tensor(x[i:i + batch_size])).asnumpy()
            correct += int((logits.argmax(1) == y[i:i + batch_size]).sum())
    return correct / len(y)


def _train(net, seed: int, *, steps: int, lr: float, batch_size: int = 64,
           weight_decay: float = 0.0) -> None:
    split = load_digits_split(seed=SPLIT_SEED)
    rng = np.random.default_rng(seed)
    x, y = split.train_x, split.train_y

    def loss_of(xb, yb):
        return ops.cross_entropy(net(xb), yb)

    feed = ((sx.Tensor(x[i]), sx.Tensor(y[i])) for i in batches(len(y), batch_size, rng))
    fit(net, loss_of, feed, steps=steps, lr=lr, weight_decay=weight_decay)


def _evaluate(net) -> dict:
    split = load_digits_split(seed=SPLIT_SEED)
    return {"test_accuracy": accuracy(net, split.test_x, split.test_y)}


def _recipe(**hyper) -> Recipe:
    return Recipe(partial(_train, **hyper), _evaluate, data="digits",
                  metric="test_accuracy: top-1 accuracy on the 359 test digits")


# steps of batch 64 (22 steps = one epoch of 1,438 images), peak learning rates
RECIPES = {
    "lenet5": _recipe(steps=900, lr=2e-3),
    "mlp": _recipe(steps=900, lr=2e-3),
    "resnet20": _recipe(steps=120, lr=3e-3),
    "resnet18": _recipe(steps=120, lr=3e-3),
    "mobilenet_v2": _recipe(steps=200, lr=5e-3),
    "vit_tiny": _recipe(steps=900, lr=1e-3, weight_decay=0.05),
}
