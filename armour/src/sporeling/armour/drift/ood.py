"""Out-of-distribution scores from a classifier's logits, and a detector calibrated on
in-distribution data.

* ``max_softmax(logits)``: the largest softmax probability (Hendrycks & Gimpel); *low* means
  out of distribution.
* ``energy(logits, temperature=1)``: ``-T · logsumexp(logits / T)`` (Liu et al. 2020);
  *high* means out of distribution.
* ``OODDetector(score="energy" | "msp", alpha=0.05).fit(logits_in)`` puts the threshold at the
  in-distribution ``1 - alpha`` quantile of the OOD score, so about ``alpha`` of
  in-distribution inputs are flagged; ``predict(logits)`` flags the rest.

``logits`` may be an array or Tensor ``(N, classes)``; ``logits_of(net, x)`` runs a network.
"""
from __future__ import annotations

import numpy as np

import sporeling.expression as sx

from .errors import DriftError

__all__ = ["max_softmax", "energy", "ood_score", "OODDetector", "logits_of", "auroc"]


def _logits(z, op):
    z = np.asarray(z.asnumpy() if hasattr(z, "asnumpy") else z, dtype=np.float64)
    if z.ndim != 2 or z.shape[1] < 2 or not np.isfinite(z).all():
        raise DriftError("bad logits", op=op, expected="finite (N, classes >= 2) logits",
                         got=z.shape if np.isfinite(z).all() else "NaN or inf")
    return z


def _logsumexp(z):
    m = z.max(axis=1, keepdims=True)
    return (m + np.log(np.exp(z - m).sum(axis=1, keepdims=True)))[:, 0]


def max_softmax(logits) -> np.ndarray:
    """Max softmax probability per row (high: in distribution)."""
    z = _logits(logits, "max_softmax")
    return np.exp(z.max(axis=1) - _logsumexp(z))


def energy(logits, temperature: float = 1.0) -> np.ndarray:
    """Free energy ``-T logsumexp(z / T)`` per row (high: out of distribution)."""
    if not temperature > 0:
        raise DriftError("bad temperature", op="energy", expected="temperature > 0",
                         got=temperature)
    return -temperature * _logsumexp(_logits(logits, "energy") / temperature)


def ood_score(logits, score: str = "energy", temperature: float = 1.0) -> np.ndarray:
    """An OOD score where higher means more out of distribution: the energy, or ``-msp``."""
    if score == "energy":
        return energy(logits, temperature)
    if score == "msp":
        return -max_softmax(logits)
    raise DriftError("unknown score", op="ood_score", expected="'energy' or 'msp'", got=score)


def logits_of(net, x, batch_size: int = 512) -> np.ndarray:
    """``net``'s outputs on the array ``x``, in batches."""
    x = np.asarray(x, np.float32)
    return np.concatenate([np.asarray(net(sx.Tensor(x[i:i + batch_size])).asnumpy())
                           for i in range(0, len(x), batch_size)])


def auroc(scores_in, scores_out) -> float:
    """Probability that an OOD input scores higher than an in-distribution one (ties: ½)."""
    a, b = np.asarray(scores_in, float), np.asarray(scores_out, float)
    greater = (b[:, None] > a[None, :]).mean()
    ties = (b[:, None] == a[None, :]).mean()
    return float(greater + 0.5 * ties)


class OODDetector:
    """Flags inputs whose OOD score exceeds the in-distribution ``1 - alpha`` quantile."""

    def __init__(self, score: str = "energy", alpha: float = 0.05, temperature: float = 1.0):
        if score not in ("energy", "msp"):
            raise DriftError("unknown score", op="OODDetector", expected="'energy' or 'msp'",
                             got=score)
        if not 0 < alpha < 1:
            raise DriftError("bad alpha", op="OODDetector", expected="0 < alpha < 1", got=alpha)
        self.score, self.alpha, self.temperature = score, float(alpha), float(temperature)
        self.threshold: float | None = None

    def scores(self, logits) -> np.ndarray:
        return ood_score(logits, self.score, self.temperature)

    def fit(self, logits_in) -> "OODDetector":
        s = np.sort(self.scores(logits_in))
        # The ceil((n+1)(1-alpha))-th smallest: a fresh in-distribution score exceeds it with
        # probability <= alpha (conformal quantile).
        rank = int(np.ceil((len(s) + 1) * (1 - self.alpha)))
        self.threshold = float(s[rank - 1]) if rank <= len(s) else float("inf")
        return self

    def predict(self, logits) -> np.ndarray:
        """Boolean per row: out of distribution."""
        if self.threshold is None:
            raise DriftError("detector not fitted", op="OODDetector.predict",
                             expected="fit(in-distribution logits) first", got="no threshold")
        return self.scores(logits) > self.threshold
