"""The MLP the pipeline and ZeRO tests share: float64, deterministic weights."""
from __future__ import annotations

import numpy as np

from sporeling.expression import nn

WIDTHS = (6, 12, 10, 8, 12, 4)   # five Dense layers


def mlp(seed: int = 0, stages: list[int] | None = None) -> nn.SequentialCell:
    """Dense-tanh layers (the last without tanh); ``stages[i]`` is layer ``i``'s stage."""
    rng = np.random.default_rng(seed)
    layers = []
    for i, (a, b) in enumerate(zip(WIDTHS, WIDTHS[1:])):
        last = i == len(WIDTHS) - 2
        dense = nn.Dense(a, b, weight_init=rng.normal(0, 0.5, (b, a)),
                         bias_init=rng.normal(0, 0.1, (b,)), dtype="float64",
                         activation=None if last else "tanh")
        if stages is not None:
            dense.pipeline_stage = stages[i]
        layers.append(dense)
    return nn.SequentialCell(layers)


def data(batch: int = 16, seed: int = 1):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(batch, WIDTHS[0])), rng.normal(size=(batch, WIDTHS[-1]))


def params(net) -> dict:
    return {p.name: p.asnumpy().copy() for p in net.trainable_params()}
