"""The training run the data-parallel tests (thread-ranks and the real MPI job) compare:
an MLP trained 10 steps by TrainOneStepCell (or Model). Each rank reads rows ``rank::ranks``
of every batch of ``BATCH`` rows -- what sporeling.data's sharding by rank gives (tested
with the pipeline in the repository's tests/test_data_parallel_pipeline.py)."""
from __future__ import annotations

import numpy as np

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


def batches(dtype, ranks: int = 1, rank: int = 0) -> list:
    """This rank's share of each of the ``STEPS`` batches of ``BATCH`` rows."""
    rng = np.random.default_rng(1)
    x = rng.standard_normal((STEPS * BATCH, FEATURES)).astype(dtype)
    y = np.sin(x.sum(axis=1, keepdims=True)).astype(dtype)
    return [(x[i:i + BATCH][rank::ranks], y[i:i + BATCH][rank::ranks])
            for i in range(0, STEPS * BATCH, BATCH)]


def mse(out, y):
    return ops.mean((out - y) ** 2)


def train(dtype, ranks: int = 1, noise: float = 0.0, use_model: bool = False):
    """The final weights after ``STEPS`` steps on this rank's share (rank from the current
    communicator when ``ranks > 1``)."""
    rank = 0
    if ranks > 1:
        from sporeling.parallel import get_rank
        rank = get_rank()
    net = MLP(dtype, noise)
    opt = SGD(net.trainable_params(), 0.2, momentum=0.5)
    data = batches(dtype, ranks, rank)
    if use_model:
        Model(net, mse, opt).train(1, data)
    else:
        step = TrainOneStepCell(WithLossCell(net, mse), opt)
        for x, y in data:
            step(x, y)
    return {p.name: p.asnumpy().copy() for p in net.trainable_params()}
