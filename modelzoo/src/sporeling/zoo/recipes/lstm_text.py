"""The LSTM text classifier's recipe: the synthetic reviews (:mod:`.reviews`), cross-entropy,
Adam; the metric is the accuracy on the 1,000 test reviews."""
from __future__ import annotations

import numpy as np

import sporeling.expression as sx
from sporeling.expression import ops

from .loop import Recipe, batches, fit
from .reviews import load_reviews

__all__ = ["RECIPES", "test_accuracy"]


def test_accuracy(net) -> float:
    ids, lengths, labels = load_reviews("test")
    net.set_train(False)
    with sx.no_grad():
        logits = net(ids, lengths).asnumpy()
    return float((logits.argmax(1) == labels).mean())


def _train(net, seed: int, steps: int = 600, lr: float = 5e-3) -> None:
    ids, lengths, labels = load_reviews("train")
    rng = np.random.default_rng(seed)

    def loss_of(xb, lb, yb):
        return ops.cross_entropy(net(xb, lb), yb)

    feed = ((sx.Tensor(ids[i]), sx.Tensor(lengths[i]), sx.Tensor(labels[i]))
            for i in batches(len(labels), 64, rng))
    fit(net, loss_of, feed, steps=steps, lr=lr, clip=1.0)


RECIPES = {"lstm_text": Recipe(_train, lambda net: {"test_accuracy": test_accuracy(net)},
                               data="reviews",
                               metric="test_accuracy: accuracy on the 1,000 test reviews")}
