"""The digits LeNet trained once per test session (shared by the deploy tests)."""
from functools import cache

import numpy as np


@cache
def digits():
    from sporeling.zoo.datasets import load_digits_split
    return load_digits_split(seed=0)


def make_lenet():
    from sporeling.zoo import create_model
    return create_model("lenet5_digits")


def accuracy(net, x, y) -> float:
    out = net(x)
    logits = out.asnumpy() if hasattr(out, "asnumpy") else np.asarray(out)
    return float((logits.argmax(1) == y).mean())


@cache
def trained_lenet_weights(epochs: int = 4) -> dict:
    """Parameter name -> trained value (Graph mode: a few seconds an epoch)."""
    import sporeling.data as sd
    import sporeling.expression as sx
    from sporeling.core import set_seed
    set_seed(0)
    split = digits()
    net = make_lenet()
    model = sx.Model(net, loss_fn=sx.nn.CrossEntropyLoss(),
                     optimizer=sx.nn.Adam(net.trainable_params(), learning_rate=0.005))
    data = sd.NumpySlicesDataset((split.train_x, split.train_y), ["image", "label"]) \
        .shuffle(len(split.train_y)).batch(32)
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
