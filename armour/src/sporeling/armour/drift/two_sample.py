"""Two-sample drift tests: does a new batch come from the reference distribution?

* ``KSDrift``: Kolmogorov–Smirnov per feature (``scipy.stats.ks_2samp``, exact or asymptotic
  p-values as scipy chooses), Bonferroni-corrected over the ``d`` features: drift when the
  smallest p-value times ``d`` is below ``alpha``.
* ``MMDDrift``: the squared maximum mean discrepancy with a Gaussian kernel (bandwidth: the
  median pairwise distance of the reference unless given), p-value by a permutation test:
  ``(1 + #{permuted MMD² >= observed}) / (1 + n_permutations)``, which is valid (its
  false-alarm rate is at most ``alpha``) for any number of permutations.

Both take ``(N, d)`` arrays (or ``(N,)`` for one feature) -- raw inputs, a model's features or
its softmax outputs.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import DriftError

__all__ = ["DriftResult", "KSDrift", "MMDDrift"]


@dataclass(frozen=True)
class DriftResult:
    """``drift``: p_value < alpha. ``statistic``: the KS D (largest over features) or MMD²."""
    drift: bool
    p_value: float
    statistic: float
    alpha: float


def _check_alpha(alpha, op):
    if not 0 < alpha < 1:
        raise DriftError("bad alpha", op=op, expected="0 < alpha < 1", got=alpha)
    return float(alpha)


def _as_2d(x, op, name, width=None):
    x = np.asarray(x.asnumpy() if hasattr(x, "asnumpy") else x, dtype=np.float64)
    if x.ndim == 1:
        x = x[:, None]
    if x.ndim != 2 or len(x) < 2 or (width is not None and x.shape[1] != width):
        raise DriftError(f"bad {name}", op=op,
                         expected=f"(N >= 2, {width if width is not None else 'd'}) samples",
                         got=x.shape)
    if not np.isfinite(x).all():
        raise DriftError(f"non-finite values in {name}", op=op, expected="finite values",
                         got="NaN or inf")
    return x


class KSDrift:
    """``KSDrift(x_ref, alpha=0.05).test(x) -> DriftResult`` (``p_values``: per feature)."""

    def __init__(self, x_ref, alpha: float = 0.05):
        self.alpha = _check_alpha(alpha, "KSDrift")
        self.x_ref = _as_2d(x_ref, "KSDrift", "x_ref")

    def test(self, x) -> DriftResult:
        from scipy.stats import ks_2samp

        x = _as_2d(x, "KSDrift.test", "x", self.x_ref.shape[1])
        res = ks_2samp(self.x_ref, x, axis=0)
        p = np.atleast_1d(res.pvalue)
        self.p_values = p
        p_min = float(min(1.0, p.min() * len(p)))
        return DriftResult(p_min < self.alpha, p_min, float(np.max(res.statistic)), self.alpha)


class MMDDrift:
    """``MMDDrift(x_ref, alpha=0.05, n_permutations=200, bandwidth=None, seed=0).test(x)``."""

    def __init__(self, x_ref, alpha: float = 0.05, n_permutations: int = 200,
                 bandwidth: float | None = None, seed: int = 0):
        self.alpha = _check_alpha(alpha, "MMDDrift")
        self.x_ref = _as_2d(x_ref, "MMDDrift", "x_ref")
        if int(n_permutations) != n_permutations or n_permutations < 1:
            raise DriftError("bad n_permutations", op="MMDDrift", expected="an integer >= 1",
                             got=n_permutations)
        self.n_permutations = int(n_permutations)
        if bandwidth is None:
            d = np.sqrt(_sq_dists(self.x_ref, self.x_ref))
            off = d[~np.eye(len(d), dtype=bool)]
            bandwidth = float(np.median(off[off > 0])) if (off > 0).any() else 1.0
        if not bandwidth > 0:
            raise DriftError("bad bandwidth", op="MMDDrift", expected="bandwidth > 0",
                             got=bandwidth)
        self.bandwidth = float(bandwidth)
        self.rng = np.random.default_rng(seed)

    def test(self, x) -> DriftResult:
        x = _as_2d(x, "MMDDrift.test", "x", self.x_ref.shape[1])
        z = np.concatenate([self.x_ref, x])
        k = np.exp(-_sq_dists(z, z) / (2 * self.bandwidth ** 2))
        n, m = len(self.x_ref), len(x)
        # MMD² (biased V-statistic) = wᵀKw with w = 1/n on one sample, -1/m on the other;
        # all permutations at once as rows of W.
        base = np.concatenate([np.full(n, 1.0 / n), np.full(m, -1.0 / m)])
        w = np.stack([base] + [base[self.rng.permutation(n + m)]
                               for _ in range(self.n_permutations)])
        mmd2 = np.einsum("bi,ij,bj->b", w, k, w)
        p = (1 + np.sum(mmd2[1:] >= mmd2[0] - 1e-12)) / (1 + self.n_permutations)
        return DriftResult(bool(p < self.alpha), float(p), float(mmd2[0]), self.alpha)


def _sq_dists(a, b):
    return np.maximum((a * a).sum(1)[:, None] + (b * b).sum(1)[None, :] - 2 * a @ b.T, 0.0)
