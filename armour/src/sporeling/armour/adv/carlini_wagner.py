"""Carlini–Wagner L2 (2017): minimise ``‖x' − x‖² + c · f(x')`` over ``x'`` written as
``tanh`` of a free variable (so ``x'`` stays in ``bounds``), with Adam, and a binary search
on ``c`` per sample keeping the smallest successful perturbation.

``f`` is ``max(Z_y − max_{i≠y} Z_i + κ, 0)`` untargeted, ``max(max_{i≠t} Z_i − Z_t + κ, 0)``
targeted (``Z`` the logits, κ = ``confidence``)."""
from __future__ import annotations

import numpy as np

import sporeling.expression as sx
from sporeling.expression import ops

from ._checks import as_batch, check_bounds, check_eps, check_positive_int

__all__ = ["CarliniWagnerL2Attack", "carlini_wagner_l2"]

_BIG = 1e4


class CarliniWagnerL2Attack:
    """Returns the best adversarial found per sample; a sample for which none was found is
    returned unchanged."""

    _op = "CarliniWagnerL2Attack"

    def __init__(self, network, num_classes=10, bounds=(0.0, 1.0), targeted=False,
                 confidence=0.0, learning_rate=0.05, binary_search_steps=5,
                 max_iterations=100, initial_const=1.0):
        self.network = network
        self.num_classes = check_positive_int(num_classes, "num_classes", self._op)
        self.bounds = check_bounds(bounds, self._op)
        self.targeted = bool(targeted)
        self.confidence = check_eps(confidence, "confidence", self._op)
        self.learning_rate = check_eps(learning_rate, "learning_rate", self._op, False)
        self.binary_search_steps = check_positive_int(binary_search_steps,
                                                      "binary_search_steps", self._op)
        self.max_iterations = check_positive_int(max_iterations, "max_iterations", self._op)
        self.initial_const = check_eps(initial_const, "initial_const", self._op, False)
        self._vg = sx.value_and_grad(self._objective, 0, has_aux=True)
        self._compiled = None

    def _to_input(self, w):
        low, high = self.bounds
        return (ops.tanh(w) + 1.0) * (0.5 * (high - low)) + low

    def _objective(self, w, x0, const, onehot):
        adv = self._to_input(w)
        logits = self.network(adv)
        dist = ops.sum(ops.reshape(ops.square(adv - x0), (x0.shape[0], -1)), axis=1)
        real = ops.sum(logits * onehot, axis=1)
        other = ops.max(logits - onehot * _BIG, axis=1)
        margin = other - real if self.targeted else real - other
        f = ops.relu(margin + self.confidence)
        return ops.sum(dist + const * f), (dist, logits)

    def _value_and_grad(self, *args):
        fn = self._vg
        if sx.get_context("mode") == sx.GRAPH_MODE:
            self._compiled = self._compiled or sx.jit(self._vg)
            fn = self._compiled
        (_, (dist, logits)), g = fn(*(sx.Tensor(a) for a in args))
        return dist.asnumpy(), logits.asnumpy(), g.asnumpy()

    def _success(self, logits, y):
        adjusted = logits.copy()
        rows = np.arange(len(y))
        adjusted[rows, y] += -self.confidence if self.targeted else self.confidence
        pred = adjusted.argmax(-1)
        return pred == y if self.targeted else pred != y

    def generate(self, inputs, labels) -> np.ndarray:
        x, y = as_batch(inputs, labels, self._op)
        low, high = self.bounds
        n = len(x)
        onehot = np.eye(self.num_classes, dtype=x.dtype)[y]
        unit = np.clip((x - low) / (high - low) * 2 - 1, -1 + 1e-6, 1 - 1e-6)
        w0 = np.arctanh(unit).astype(x.dtype)
        lower, upper = np.zeros(n), np.full(n, np.inf)
        const = np.full(n, self.initial_const)
        best_dist, best = np.full(n, np.inf), x.copy()
        for _ in range(self.binary_search_steps):
            w, m, v = w0.copy(), np.zeros_like(w0), np.zeros_like(w0)
            found = np.zeros(n, bool)
            for t in range(1, self.max_iterations + 1):
                dist, logits, g = self._value_and_grad(w, x, const.astype(x.dtype), onehot)
                # the point w was evaluated at (before this update)
                adv = ((np.tanh(w) + 1) * (0.5 * (high - low)) + low).astype(x.dtype)
                ok = self._success(logits, y)
                better = ok & (dist < best_dist)
                best_dist[better], best[better] = dist[better], adv[better]
                found |= ok
                m = 0.9 * m + 0.1 * g                       # Adam (β1 .9, β2 .999)
                v = 0.999 * v + 0.001 * g * g
                step = self.learning_rate * (m / (1 - 0.9 ** t)) / \
                    (np.sqrt(v / (1 - 0.999 ** t)) + 1e-8)
                w = (w - step).astype(x.dtype)
            upper = np.where(found, np.minimum(upper, const), upper)
            lower = np.where(found, lower, np.maximum(lower, const))
            const = np.where(np.isfinite(upper), (lower + upper) / 2, const * 10)
        return best.reshape(x.shape)


def carlini_wagner_l2(network, inputs, labels, **kwargs) -> np.ndarray:
    """``CarliniWagnerL2Attack(network, **kwargs).generate(inputs, labels)``."""
    return CarliniWagnerL2Attack(network, **kwargs).generate(inputs, labels)
