"""The training run the data-parallel tests (thread-ranks and the real MPI job) compare:
an MLP fed by a sporeling.data pipeline, trained 10 steps by TrainOneStepCell (or Model)."""
from __future__ import annotations

import numpy as np

import sporeling.data as sd
from sporeling.expression import Parameter, nn, ops
from sporeling.expression.optim import SGD
from sporeling.expression.train import Model, TrainOneStepCell, WithLossCell

STEPS, BATCH, FEATURES, HIDDEN = 10, 8, 5, 6


class MLP(nn.Cell):
    """Three dense layers with fixed initial weights (``noise`` perturbs them: rank 0's
    must win the broadcast)."""

    def __init__(self, dtype, noise: float = 0.0):
        super().__init__()
        rng = np.random.default_rng(0)
        shapes = [(FEATURES, HIDDEN), (HIDDEN,), (HIDDEN, HIDDEN), (HIDDEN,), (HIDDEN, 1)]
        self.w = [Parameter((rng.standard_normal(s) * 0.5 + noise).astype(dtype), name=f"w{i}")
                  for i, s in enumerate(shapes)]
        for i, p in enumerate(self.w):
            setattr(self, f"w{i}", p)

    def construct(self, x):
        h = ops.tanh(ops.matmul(x, self.w0) + self.w1)
        h = ops.tanh(ops.matmul(h, self.w2) + self.w3)
        return ops.matmul(h, self.w4)


def dataset(dtype, batch: int):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((STEPS * BATCH, FEATURES)).astype(dtype)
    y = np.sin(x.sum(axis=1, keepdims=True)).astype(dtype)
    return sd.NumpySlicesDataset((x, y), ["x", "y"], shuffle=False).batch(batch)


def mse(out, y):
    return ops.mean((out - y) ** 2)


def train(dtype, batch: int, noise: float = 0.0, use_model: bool = False):
    """The final weights after ``STEPS`` steps of ``batch`` rows (this rank's share)."""
    net = MLP(dtype, noise)
    opt = SGD(net.trainable_params(), 0.2, momentum=0.5)
    data = dataset(dtype, batch)
    if use_model:
        Model(net, mse, opt).train(1, data)
    else:
        step = TrainOneStepCell(WithLossCell(net, mse), opt)
        for x, y in data:
            step(x, y)
    return {p.name: p.asnumpy().copy() for p in net.trainable_params()}
