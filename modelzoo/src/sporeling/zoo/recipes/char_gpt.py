"""The character GPT's recipe and its corpus: the Python documentation's topic pages that
ship with CPython (``pydoc_data.topics``, what ``help("if")`` prints; Python Software
Foundation License 2.0) -- present wherever Python is, no download.

The corpus is every topic in sorted order, joined by blank lines; the first 90% trains, the
last 10% validates. Its SHA-256 is recorded with the weights, because another Python version
ships other text. The metric is the mean next-character cross-entropy (nats) over fixed,
non-overlapping windows of the validation text."""
from __future__ import annotations

import hashlib

import numpy as np

import sporeling.expression as sx
from sporeling.expression import ops

from ..models.char_gpt import encode
from .loop import Recipe, fit

__all__ = ["RECIPES", "corpus", "corpus_sha256", "validation_loss"]

CORPUS_LICENSE = "PSF-2.0 (Python documentation, pydoc_data.topics)"
VAL_WINDOWS = 96  # windows of block_size + 1 characters the metric averages over


def corpus() -> str:
    from pydoc_data.topics import topics
    return "\n\n".join(topics[key].strip() for key in sorted(topics)) + "\n"


def corpus_sha256() -> str:
    return hashlib.sha256(corpus().encode("utf-8")).hexdigest()


def _split() -> tuple[np.ndarray, np.ndarray]:
    ids = encode(corpus())
    cut = int(0.9 * len(ids))
    return ids[:cut], ids[cut:]


def _windows(ids: np.ndarray, starts: np.ndarray, block: int) -> tuple[np.ndarray, ...]:
    rows = np.stack([ids[s:s + block + 1] for s in starts])
    return rows[:, :-1], rows[:, 1:]


def validation_loss(net) -> float:
    """Mean cross-entropy (nats per character) on the first VAL_WINDOWS non-overlapping
    windows of the validation text."""
    _, val = _split()
    block = net.block_size
    x, y = _windows(val, np.arange(VAL_WINDOWS) * (block + 1), block)
    net.set_train(False)
    with sx.no_grad():
        logits = net(x)
        loss = ops.cross_entropy(ops.reshape(logits, (-1, logits.shape[-1])),
                                 sx.Tensor(y.reshape(-1)))
    return float(loss.asnumpy())


def _train(net, seed: int, steps: int = 700, lr: float = 3e-3, batch: int = 32) -> None:
    train, _ = _split()
    block = net.block_size
    rng = np.random.default_rng(seed)

    def loss_of(xb, yb):
        logits = net(xb)
        return ops.cross_entropy(ops.reshape(logits, (-1, logits.shape[-1])),
                                 ops.reshape(yb, (-1,)))

    def feed():
        while True:
            x, y = _windows(train, rng.integers(0, len(train) - block - 1, batch), block)
            yield sx.Tensor(x), sx.Tensor(y)

    fit(net, loss_of, feed(), steps=steps, lr=lr, clip=1.0)


def _evaluate(net) -> dict:
    return {"val_loss": validation_loss(net)}


RECIPES = {"char_gpt": Recipe(_train, _evaluate, data="pydoc_data.topics",
                              metric="val_loss: next-character cross-entropy (nats) on "
                                     "the validation text")}
