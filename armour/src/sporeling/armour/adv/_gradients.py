"""Gradients with respect to the input, in either mode: in Graph mode the function is compiled
once per shape with ``sx.jit``; in PyNative mode it runs eagerly."""
from __future__ import annotations

import numpy as np

import sporeling.expression as sx
from sporeling.expression import nn

__all__ = ["InputGradient", "default_loss"]


def default_loss():
    """Softmax cross-entropy summed over the batch (so each sample's gradient is its own)."""
    return nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="sum")


def _graph_mode() -> bool:
    return sx.get_context("mode") == sx.GRAPH_MODE


class InputGradient:
    """``(loss, d loss / d x)`` of ``loss_fn(network(x), labels)`` as NumPy arrays, and
    ``logit_grad(x, weights)``: the gradient of ``sum(network(x) * weights)`` (one class's
    logit per sample when ``weights`` is one-hot), with the logits."""

    def __init__(self, network, loss_fn=None):
        self.network = network
        loss_fn = loss_fn or default_loss()
        self._loss_vg = sx.value_and_grad(lambda x, y: loss_fn(network(x), y), 0)
        self._logit_vg = sx.value_and_grad(self._weighted_logits, 0, has_aux=True)
        self._compiled = {}

    def _weighted_logits(self, x, w):
        logits = self.network(x)
        return sx.ops.sum(logits * w), logits

    def _run(self, key, fn, *args):
        if _graph_mode():
            fn = self._compiled.setdefault(key, sx.jit(fn))
        return fn(*(sx.Tensor(a) for a in args))

    def loss_grad(self, x: np.ndarray, y: np.ndarray):
        loss, g = self._run("loss", self._loss_vg, x, y)
        return float(loss.asnumpy()), g.asnumpy()

    def logit_grad(self, x: np.ndarray, weights: np.ndarray):
        (_, logits), g = self._run("logit", self._logit_vg, x, weights.astype(x.dtype))
        return logits.asnumpy(), g.asnumpy()

    def logits(self, x: np.ndarray) -> np.ndarray:
        return np.asarray(self.network(sx.Tensor(x)).asnumpy())
