"""The digits LeNet trained once per test session (shared by the deploy tests).

The network and the split are those of the model zoo (``lenet5_digits``,
``load_digits_split(seed=0)``), written out here: the zoo depends on this package, so its
tests cannot import it (``tests/test_test_imports.py``)."""
from functools import cache
from types import SimpleNamespace

import numpy as np

from sporeling.expression import nn


class LeNet5(nn.Cell):
    """The zoo's LeNet-5 for 8x8 digits: two conv+ReLU+max-pool stages, three Dense."""

    def __init__(self, num_classes: int = 10, channels: tuple[int, int] = (32, 64)):
        super().__init__()
        c1, c2 = channels
        self.features = nn.SequentialCell(
            nn.Conv2d(1, c1, 3, pad_mode="same", has_bias=True), nn.ReLU(),
            nn.MaxPool2d(2, 2),
            nn.Conv2d(c1, c2, 3, pad_mode="same", has_bias=True), nn.ReLU(),
            nn.MaxPool2d(2, 2),
            nn.Flatten())
        self.classifier = nn.SequentialCell(
            nn.Dense(c2 * 4, 120), nn.ReLU(), nn.Dense(120, 84), nn.ReLU(),
            nn.Dense(84, num_classes))

    def construct(self, x):
        return self.classifier(self.features(x))


@cache
def digits():
    """scikit-learn's 8x8 digits, (N, 1, 8, 8) in [0, 1]; 80/20 split, seed 0."""
    from sklearn.datasets import load_digits
    data = load_digits()
    x = (data.images / 16.0).astype(np.float32)[:, None]
    y = data.target.astype(np.int32)
    order = np.random.default_rng(0).permutation(len(y))
    test, train = order[:int(round(len(y) * 0.2))], order[int(round(len(y) * 0.2)):]
    return SimpleNamespace(train_x=x[train], train_y=y[train], test_x=x[test],
                           test_y=y[test])


def make_lenet():
    return LeNet5()


class Batches:
    """(image, label) batches, reshuffled every epoch from one seeded generator (what
    Model.train takes; sporeling.data is not in this package's test env)."""

    def __init__(self, x, y, batch_size: int = 32, seed: int = 0):
        self.x, self.y, self.batch_size = x, y, batch_size
        self.rng = np.random.default_rng(seed)

    def __len__(self):
        return -(-len(self.y) // self.batch_size)

    def __iter__(self):
        order = self.rng.permutation(len(self.y))
        for i in range(0, len(order), self.batch_size):
            idx = order[i:i + self.batch_size]
            yield self.x[idx], self.y[idx]


def accuracy(net, x, y) -> float:
    out = net(x)
    logits = out.asnumpy() if hasattr(out, "asnumpy") else np.asarray(out)
    return float((logits.argmax(1) == y).mean())


@cache
def trained_lenet_weights(epochs: int = 6) -> dict:
    """Parameter name -> trained value (Graph mode: a few seconds an epoch)."""
    import sporeling.expression as sx
    from sporeling.core import set_seed
    set_seed(0)
    split = digits()
    net = make_lenet()
    model = sx.Model(net, loss_fn=sx.nn.CrossEntropyLoss(),
                     optimizer=sx.nn.Adam(net.trainable_params(), learning_rate=0.003))
    data = Batches(split.train_x, split.train_y, 32, seed=0)
    with sx.context(mode=sx.GRAPH_MODE):
        model.train(epochs, data)
    return {p.name: p.asnumpy().copy() for _, p in net.parameters_and_names()}


def trained_lenet():
    """A fresh LeNet holding the session's trained weights (tests may change it)."""
    import sporeling.expression as sx
    net = make_lenet()
    for _, p in net.parameters_and_names():
        p.set_data(sx.Tensor(trained_lenet_weights()[p.name].copy()))
    return net
