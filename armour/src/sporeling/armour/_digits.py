"""The 8×8 digits data set (scikit-learn's ``load_digits``) and two small trained models, shared
by armour's examples and tests.

    >>> from sporeling.armour._digits import load_digits_split, train_mlp
    >>> data = load_digits_split()                 # pixels scaled to [0, 1], float32
    >>> net = train_mlp(data, epochs=20)           # ~0.95 test accuracy in a few seconds
    >>> accuracy(net, data.x_test, data.y_test)    # doctest: +SKIP

Images are ``(N, 64)`` for the MLP and ``(N, 1, 8, 8)`` for LeNet (``data.images(split)``).
Everything is seeded, so the same call gives the same weights. ``shared_mlp()`` and
``shared_lenet()`` train once per process (a test session) and return the same network every
call -- wrap them in a session fixture; do not train them further (use ``train_mlp`` for a
network of your own).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

import sporeling.expression as sx
from sporeling.expression import nn

__all__ = ["DigitsSplit", "load_digits_split", "make_mlp", "make_lenet", "train_mlp",
           "train_lenet", "train_net", "accuracy", "predict", "shared_digits", "shared_mlp",
           "shared_lenet"]


@dataclass(frozen=True)
class DigitsSplit:
    """Train/test arrays: ``x_*`` float32 ``(N, 64)`` in [0, 1], ``y_*`` int32 labels 0..9."""
    x_train: np.ndarray
    y_train: np.ndarray
    x_test: np.ndarray
    y_test: np.ndarray

    def images(self, split: str = "test") -> np.ndarray:
        """The ``split`` ("train" or "test") as ``(N, 1, 8, 8)`` images."""
        x = self.x_train if split == "train" else self.x_test
        return x.reshape(-1, 1, 8, 8)


def load_digits_split(test_fraction: float = 0.25, seed: int = 0) -> DigitsSplit:
    """scikit-learn's 1,797 digits, pixels divided by 16, split with a stratified shuffle."""
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    d = load_digits()
    x = (d.data / 16.0).astype(np.float32)
    y = d.target.astype(np.int32)
    xtr, xte, ytr, yte = train_test_split(x, y, test_size=test_fraction, random_state=seed,
                                          stratify=y)
    return DigitsSplit(xtr, ytr, xte, yte)


class _LeNet(nn.Cell):
    """LeNet shrunk to 8×8 inputs: conv 3×3 (8) → pool → conv 3×3 (16) → dense 32 → 10."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, pad_mode="same")
        self.conv2 = nn.Conv2d(8, 16, 3, pad_mode="same")
        self.pool = nn.MaxPool2d(2, 2)
        self.relu = nn.ReLU()
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(16 * 2 * 2, 32)
        self.fc2 = nn.Dense(32, 10)

    def construct(self, x):
        x = self.pool(self.relu(self.conv1(x)))
        x = self.pool(self.relu(self.conv2(x)))
        return self.fc2(self.relu(self.fc1(self.flatten(x))))


def make_mlp(hidden: int = 32, seed: int = 0) -> nn.Cell:
    """An untrained 64 → hidden → 10 MLP (ReLU), seeded."""
    sx.set_seed(seed)
    return nn.SequentialCell([nn.Dense(64, hidden), nn.ReLU(), nn.Dense(hidden, 10)])


def make_lenet(seed: int = 0) -> nn.Cell:
    """An untrained LeNet for ``(N, 1, 8, 8)`` inputs, seeded."""
    sx.set_seed(seed)
    return _LeNet()


def _batches(x, y, batch_size, seed):
    order = np.random.default_rng(seed).permutation(len(x))
    return [(x[order[i:i + batch_size]], y[order[i:i + batch_size]])
            for i in range(0, len(x), batch_size)]


def train_net(net, x, y, epochs: int = 20, lr: float = 0.01, batch_size: int = 64,
              seed: int = 0, train_network=None):
    """Train ``net`` with Adam and softmax cross-entropy through ``Model``; returns ``net``.

    ``train_network`` replaces the one-step cell ``Model`` would build (adversarial training
    passes its own)."""
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    if train_network is None:
        model = sx.Model(net, loss, sx.optim.Adam(net.trainable_params(), lr))
    else:
        model = sx.Model(train_network)
    model.train(epochs, _batches(x, y, batch_size, seed))
    return net


def train_mlp(data: DigitsSplit | None = None, epochs: int = 20, hidden: int = 32,
              seed: int = 0) -> nn.Cell:
    """A trained MLP (about 0.95 test accuracy at the defaults)."""
    data = data or load_digits_split()
    return train_net(make_mlp(hidden, seed), data.x_train, data.y_train, epochs, seed=seed)


def train_lenet(data: DigitsSplit | None = None, epochs: int = 15, seed: int = 0) -> nn.Cell:
    """A trained LeNet on ``(N, 1, 8, 8)`` images."""
    data = data or load_digits_split()
    return train_net(make_lenet(seed), data.images("train"), data.y_train, epochs, seed=seed)


def predict(net, x, batch_size: int = 512) -> np.ndarray:
    """Predicted labels of ``net`` on the array ``x``."""
    out = [np.asarray(net(sx.Tensor(x[i:i + batch_size])).asnumpy()).argmax(-1)
           for i in range(0, len(x), batch_size)]
    return np.concatenate(out) if out else np.zeros(0, np.int64)


def accuracy(net, x, y) -> float:
    """Top-1 accuracy of ``net`` on ``(x, y)``."""
    return float((predict(net, x) == np.asarray(y)).mean())


@lru_cache(maxsize=None)
def shared_digits() -> DigitsSplit:
    """The default split, loaded once per process."""
    return load_digits_split()


@lru_cache(maxsize=None)
def shared_mlp() -> nn.Cell:
    """The default trained MLP, trained once per process (~2 s)."""
    return train_mlp(shared_digits())


@lru_cache(maxsize=None)
def shared_lenet() -> nn.Cell:
    """The default trained LeNet, trained once per process (~5 s)."""
    return train_lenet(shared_digits())
