"""The zoo's digits LeNet trained once per test session (shared by the deploy tests of
``sporeling.expression.deploy``: quantisation, pruning, QDQ ONNX)."""
from functools import cache

import numpy as np

from sporeling.zoo.datasets.digits import load_digits_split
from sporeling.zoo.models.digits import LeNet5


@cache
def digits():
    """scikit-learn's 8x8 digits, (N, 1, 8, 8) in [0, 1]; the zoo's 80/20 split, seed 0."""
    return load_digits_split(seed=0)


def make_lenet():
    return LeNet5()


class Batches:
    """(image, label) batches, reshuffled every epoch from one seeded generator (what
    Model.train takes)."""

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
