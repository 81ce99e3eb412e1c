"""Run a network and keep its layer activations, for the coverage criteria.

``LayerTaps(net)`` on a ``SequentialCell`` calls its cells one after another (each call is
compiled in Graph mode, as any Cell call) and keeps the outputs of the cells named by
``layers`` (indices; default: every activation cell -- ReLU, Sigmoid, Tanh, ... -- and the
last cell, the logits). For any other network pass ``forward=fn`` with
``fn(x: Tensor) -> (logits, [activation tensors])``.

A convolutional activation ``(N, C, H, W)`` counts one neuron per channel, its value the
spatial mean (DeepHunter's convention).
"""
from __future__ import annotations

import numpy as np

import sporeling.expression as sx
from sporeling.expression import nn

from .errors import FuzzError

__all__ = ["LayerTaps"]

_ACTIVATIONS = ("ReLU", "ReLU6", "LeakyReLU", "Sigmoid", "Tanh", "GELU", "ELU", "SiLU",
                "Softplus", "HSwish", "HSigmoid", "PReLU", "Softsign")


def _neurons(t) -> np.ndarray:
    a = np.asarray(t.asnumpy() if hasattr(t, "asnumpy") else t, dtype=np.float64)
    if a.ndim < 2:
        raise FuzzError("an activation without a batch axis", op="LayerTaps",
                        expected="(N, units) or (N, C, ...)", got=a.shape)
    return a if a.ndim == 2 else a.reshape(a.shape[0], a.shape[1], -1).mean(axis=2)


class LayerTaps:
    """``taps(x) -> (logits (N, classes) array, [layer activations (N, units)])``."""

    def __init__(self, network, layers=None, forward=None):
        self.network = network
        self.forward = forward
        if forward is None:
            if not isinstance(network, nn.SequentialCell):
                raise FuzzError("cannot tap this network", op="LayerTaps",
                                expected="a SequentialCell, or forward=fn returning "
                                         "(logits, [activations])",
                                got=type(network).__name__)
            cells = list(network)
            if layers is None:
                layers = [i for i, c in enumerate(cells) if type(c).__name__ in _ACTIVATIONS]
                layers = sorted(set(layers) | {len(cells) - 1})
            bad = [i for i in layers if not (isinstance(i, (int, np.integer)) and
                                             -len(cells) <= i < len(cells))]
            if bad or not layers:
                raise FuzzError("bad layer indices", op="LayerTaps",
                                expected=f"a non-empty list of ints in [0, {len(cells)})",
                                got=list(layers))
            self.cells = cells
            self.layers = sorted(i % len(cells) for i in layers)

    def __call__(self, x):
        x = x if isinstance(x, sx.Tensor) else sx.Tensor(np.asarray(x, np.float32))
        if self.forward is not None:
            logits, acts = self.forward(x)
            return _neurons(logits), [_neurons(a) for a in acts]
        acts = []
        for i, cell in enumerate(self.cells):
            x = cell(x)
            if i in self.layers:
                acts.append(_neurons(x))
        return _neurons(x), acts
