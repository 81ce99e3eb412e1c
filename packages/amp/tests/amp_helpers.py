"""A small digits-like task and CNN for the AMP tests (no dataset download, a few seconds).

Ten 8x8 prototype images (smoothed random patterns) plus Gaussian noise: hard enough that
accuracy is not trivially 100 % after one epoch, easy enough for a tiny CNN.
"""
import numpy as np

import sporeling.expression as sx
from sporeling.expression import nn
from sporeling.expression.optim import Adam


def digits_like(n_train=600, n_test=300, noise=1.3, seed=0):
    rng = np.random.default_rng(seed)
    protos = rng.standard_normal((10, 8, 8)).astype(np.float32)
    protos = (protos + np.roll(protos, 1, 1) + np.roll(protos, 1, 2)) / 3.0

    def draw(n):
        y = rng.integers(0, 10, n).astype(np.int32)
        x = protos[y] + noise * rng.standard_normal((n, 8, 8)).astype(np.float32)
        return x[:, None].astype(np.float32), y
    return draw(n_train) + draw(n_test)


class SmallCNN(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 8, 3, pad_mode="same")
        self.bn = nn.BatchNorm2d(8)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(2, 2)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(8 * 4 * 4, 10)

    def construct(self, x):
        return self.fc(self.flatten(self.pool(self.relu(self.bn(self.conv(x))))))


def accuracy(net, x, y):
    net.set_train(False)
    logits = net(x)
    return float(np.mean(np.argmax(logits.asnumpy(), 1) == y))


def train_eval(level, mode, epochs=3, batch=50, dtype=sx.float16, seed=0, scaler=None):
    """Test accuracy of SmallCNN trained at ``level`` in ``mode``, and the step cell."""
    from sporeling import amp
    sx.set_seed(seed)
    x, y, xt, yt = digits_like()
    net = SmallCNN()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = Adam(net.trainable_params(), 0.01)
    kwargs = {} if scaler is None else {"loss_scaler": scaler}
    step = amp.build_train_network(net, opt, loss, level=level, dtype=dtype, **kwargs)
    sx.set_context(mode=mode)
    try:
        step.set_train(True)
        for _ in range(epochs):
            for i in range(0, len(y), batch):
                step(x[i:i + batch], y[i:i + batch])
        evaluated = step.network.backbone_network
        return accuracy(evaluated, xt, yt), step
    finally:
        sx.set_context(mode=sx.PYNATIVE_MODE)
