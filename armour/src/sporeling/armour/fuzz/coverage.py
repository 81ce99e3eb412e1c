"""Coverage criteria over a network's layer activations (DeepXplore / DeepGauge).

Every criterion turns one batch of activations -- a list of ``(N, units)`` arrays, one per
tapped layer -- into a boolean *hit* matrix ``(N, cells)``; the criterion's state is the union
of hits seen so far and its coverage the covered fraction of cells.

* ``NeuronCoverage(threshold)``: cell = neuron, hit when its activation is ``> threshold``.
* ``KMultisectionCoverage(k)``: cell = (neuron, section); ``fit`` records each neuron's
  ``[low, high]`` on training data, split into ``k`` equal sections; a value hits the section
  it falls in (values outside ``[low, high]`` hit none: that is boundary coverage).
* ``TopKCoverage(k)``: cell = neuron, hit when it is among the ``k`` most active of its layer
  for that input.
"""
from __future__ import annotations

import numpy as np

from .errors import FuzzError

__all__ = ["CoverageCriterion", "NeuronCoverage", "KMultisectionCoverage", "TopKCoverage"]


def _as_layers(activations) -> list[np.ndarray]:
    if isinstance(activations, np.ndarray):
        activations = [activations]
    layers = [np.asarray(a, dtype=np.float64) for a in activations]
    if not layers or any(a.ndim != 2 for a in layers) or len({a.shape[0] for a in layers}) != 1:
        raise FuzzError("bad activations", op="coverage",
                        expected="a non-empty list of (N, units) arrays with one N",
                        got=[a.shape for a in layers])
    return layers


class CoverageCriterion:
    """Base: subclasses define ``_hits(layers) -> (N, cells) bool``."""

    name = "coverage"

    def __init__(self):
        self.covered: np.ndarray | None = None

    def _hits(self, layers: list[np.ndarray]) -> np.ndarray:
        raise NotImplementedError

    def hits(self, activations) -> np.ndarray:
        """Boolean ``(N, cells)``: which cells each input covers."""
        return self._hits(_as_layers(activations))

    def update(self, activations) -> float:
        """Add a batch's hits to the covered set; returns the coverage after it."""
        hit = self.hits(activations).any(axis=0)
        self.covered = hit if self.covered is None else (self.covered | hit)
        return self.coverage

    def gains(self, activations) -> np.ndarray:
        """Per input, in order: does it cover a cell that nothing before it (the covered set
        and the earlier inputs of this batch) covered? Updates the covered set."""
        hit = self.hits(activations)
        if self.covered is None:
            self.covered = np.zeros(hit.shape[1], bool)
        new = np.zeros(len(hit), bool)
        for i, row in enumerate(hit):
            fresh = row & ~self.covered
            if fresh.any():
                new[i] = True
                self.covered |= fresh
        return new

    @property
    def coverage(self) -> float:
        return 0.0 if self.covered is None or self.covered.size == 0 else float(self.covered.mean())

    def reset(self) -> None:
        self.covered = None


class NeuronCoverage(CoverageCriterion):
    """Fraction of neurons whose activation exceeded ``threshold`` on some input."""

    name = "neuron"

    def __init__(self, threshold: float = 0.0):
        super().__init__()
        self.threshold = float(threshold)
        self.name = f"NC({self.threshold:g})"

    def _hits(self, layers):
        return np.concatenate([a > self.threshold for a in layers], axis=1)


class KMultisectionCoverage(CoverageCriterion):
    """Fraction of (neuron, section) cells hit, ``k`` sections per neuron between its minimum
    and maximum on the data given to ``fit``."""

    def __init__(self, k: int = 10):
        super().__init__()
        if int(k) != k or k < 1:
            raise FuzzError("bad number of sections", op="KMultisectionCoverage",
                            expected="an integer k >= 1", got=k)
        self.k = int(k)
        self.low: list[np.ndarray] | None = None
        self.high: list[np.ndarray] | None = None
        self.name = f"KMNC({self.k})"

    def fit(self, activations) -> "KMultisectionCoverage":
        """Record each neuron's range on (training) activations."""
        layers = _as_layers(activations)
        self.low = [a.min(axis=0) for a in layers]
        self.high = [a.max(axis=0) for a in layers]
        self.reset()
        return self

    def _hits(self, layers):
        if self.low is None:
            raise FuzzError("ranges not fitted", op="KMultisectionCoverage",
                            expected="fit(training activations) before use", got="no ranges")
        if [a.shape[1] for a in layers] != [lo.shape[0] for lo in self.low]:
            raise FuzzError("layer widths differ from the fitted ones", op="KMultisectionCoverage",
                            expected=[lo.shape[0] for lo in self.low],
                            got=[a.shape[1] for a in layers])
        out = []
        for a, lo, hi in zip(layers, self.low, self.high):
            width = np.where(hi > lo, hi - lo, 1.0)
            section = np.floor((a - lo) / width * self.k).astype(np.int64)
            section = np.where(a == hi, self.k - 1, section)       # the top edge is inside
            inside = (a >= lo) & (a <= hi) & (hi > lo)
            hit = np.zeros(a.shape + (self.k,), bool)
            n_idx, u_idx = np.nonzero(inside)
            hit[n_idx, u_idx, section[n_idx, u_idx]] = True
            out.append(hit.reshape(a.shape[0], -1))               # neuron-major: (u, section)
        return np.concatenate(out, axis=1)


class TopKCoverage(CoverageCriterion):
    """Fraction of neurons that were among their layer's ``k`` most active on some input."""

    def __init__(self, k: int = 1):
        super().__init__()
        if int(k) != k or k < 1:
            raise FuzzError("bad k", op="TopKCoverage", expected="an integer k >= 1", got=k)
        self.k = int(k)
        self.name = f"TKNC({self.k})"

    def _hits(self, layers):
        out = []
        for a in layers:
            k = min(self.k, a.shape[1])
            top = np.argpartition(-a, k - 1, axis=1)[:, :k]
            hit = np.zeros(a.shape, bool)
            np.put_along_axis(hit, top, True, axis=1)
            out.append(hit)
        return np.concatenate(out, axis=1)
