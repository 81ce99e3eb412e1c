"""Coverage-guided fuzzing (DeepHunter-style) of a trained classifier.

Loop, ``batch_size`` mutants at a time until ``n_mutations``: pick parents from the queue
(seeds first, then mutants that raised coverage), apply one random bounded mutation each,
clip into ``bounds`` and the L∞ ball of ``max_linf`` around the original seed, run the
network. A mutant the network labels differently from its seed's label is a
*misclassification* (kept in the report, not queued); one that covers a new cell of the
guiding criterion (the first in ``criteria``) joins the queue. Every criterion's coverage is
recorded after each batch, so the report shows coverage growth and misclassifications per
1,000 mutations.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .coverage import CoverageCriterion, KMultisectionCoverage
from .errors import FuzzError
from .mutations import default_mutations
from .taps import LayerTaps

__all__ = ["Fuzzer", "FuzzReport"]


@dataclass
class FuzzReport:
    """What a fuzzing run found.

    ``history``: rows ``(mutations so far, {criterion: coverage})``, the first before any
    mutation. ``failures``: mutants ``(N, *seed shape)`` with ``failure_labels`` (the seed's
    label), ``failure_predictions`` and ``failure_seeds`` (indices into the seeds given)."""
    n_mutations: int
    history: list = field(default_factory=list)
    failures: np.ndarray | None = None
    failure_labels: np.ndarray | None = None
    failure_predictions: np.ndarray | None = None
    failure_seeds: np.ndarray | None = None
    queue_size: int = 0
    per_mutation: dict = field(default_factory=dict)

    @property
    def n_failures(self) -> int:
        return 0 if self.failures is None else len(self.failures)

    @property
    def failures_per_1000(self) -> float:
        """Misclassifications found per 1,000 mutations."""
        return 1000.0 * self.n_failures / max(self.n_mutations, 1)

    @property
    def coverage(self) -> dict:
        return dict(self.history[-1][1]) if self.history else {}

    def table(self, every: int = 1000) -> str:
        """Coverage growth as text: one row per ``every`` mutations (and the last)."""
        names = list(self.history[0][1])
        rows, mark = [], 0
        for r in self.history:                 # the first row at or past each multiple
            if r[0] >= mark or r is self.history[-1]:
                rows.append(r)
                mark = (r[0] // every + 1) * every
        head = "mutations  " + "  ".join(f"{n:>10}" for n in names)
        lines = [head] + [f"{m:>9}  " + "  ".join(f"{c[n]:>10.4f}" for n in names)
                          for m, c in rows]
        lines.append(f"misclassifications: {self.n_failures} "
                     f"({self.failures_per_1000:.1f} per 1,000 mutations)")
        return "\n".join(lines)


class Fuzzer:
    """``Fuzzer(network, criteria, mutations=None, bounds=(0, 1), max_linf=0.3,
    image_shape=None, batch_size=64, seed=0, layers=None, forward=None)``.

    ``image_shape`` is the shape a mutation sees (``(8, 8)`` for flat 64-pixel digits); the
    network sees the seed's own shape. ``layers`` / ``forward`` choose the tapped layers (see
    ``LayerTaps``)."""

    def __init__(self, network, criteria, mutations=None, bounds=(0.0, 1.0), max_linf=0.3,
                 image_shape=None, batch_size: int = 64, seed: int = 0, layers=None,
                 forward=None):
        criteria = [criteria] if isinstance(criteria, CoverageCriterion) else list(criteria)
        if not criteria or not all(isinstance(c, CoverageCriterion) for c in criteria):
            raise FuzzError("bad criteria", op="Fuzzer",
                            expected="one or more CoverageCriterion objects", got=criteria)
        lo, hi = (float(b) for b in bounds)
        if not lo < hi:
            raise FuzzError("bounds inverted", op="Fuzzer", expected="bounds (low, high), low < high",
                            got=tuple(bounds))
        if not max_linf > 0:
            raise FuzzError("bad max_linf", op="Fuzzer", expected="max_linf > 0", got=max_linf)
        if int(batch_size) != batch_size or batch_size < 1:
            raise FuzzError("bad batch_size", op="Fuzzer", expected="an integer >= 1",
                            got=batch_size)
        self.taps = LayerTaps(network, layers=layers, forward=forward)
        self.criteria = criteria
        self.mutations = list(mutations) if mutations is not None else default_mutations()
        if not self.mutations or not all(callable(m) for m in self.mutations):
            raise FuzzError("bad mutations", op="Fuzzer",
                            expected="callables mutation(image, rng) -> image",
                            got=self.mutations)
        self.bounds, self.max_linf = (lo, hi), float(max_linf)
        self.image_shape = image_shape
        self.batch_size, self.seed = int(batch_size), seed

    def fit(self, x_train, batch_size: int = 512) -> "Fuzzer":
        """Fit the criteria that need training ranges (k-multisection) on ``x_train``."""
        acts = self._activations(np.asarray(x_train, np.float32), batch_size)[1]
        for c in self.criteria:
            if isinstance(c, KMultisectionCoverage):
                c.fit(acts)
        return self

    def _activations(self, x, batch_size):
        outs = [self.taps(x[i:i + batch_size]) for i in range(0, len(x), batch_size)]
        logits = np.concatenate([o[0] for o in outs])
        acts = [np.concatenate([o[1][j] for o in outs]) for j in range(len(outs[0][1]))]
        return logits, acts

    def _mutate(self, x, origin, rng):
        shape = self.image_shape or x.shape
        try:
            img = x.astype(np.float64).reshape(shape)
        except ValueError:
            raise FuzzError("image_shape does not fit the inputs", op="Fuzzer",
                            expected=f"a shape with {x.size} elements", got=shape) from None
        k = rng.integers(len(self.mutations))
        m = np.asarray(self.mutations[k](img, rng)).reshape(x.shape)
        m = np.clip(m, origin - self.max_linf, origin + self.max_linf)
        return np.clip(m, *self.bounds).astype(np.float32), k

    def run(self, x_seeds, y_seeds, n_mutations: int = 1000) -> FuzzReport:
        """Fuzz from the seeds the network classifies correctly; see the module docstring."""
        x_seeds = np.asarray(x_seeds, np.float32)
        y_seeds = np.asarray(y_seeds).astype(np.int64)
        if x_seeds.ndim < 2 or len(x_seeds) != len(y_seeds) or len(x_seeds) == 0:
            raise FuzzError("bad seeds", op="Fuzzer.run",
                            expected="x (N, ...) and labels (N,), N >= 1",
                            got=f"{x_seeds.shape} and {y_seeds.shape}")
        if int(n_mutations) != n_mutations or n_mutations < 1:
            raise FuzzError("bad n_mutations", op="Fuzzer.run", expected="an integer >= 1",
                            got=n_mutations)
        lo, hi = self.bounds
        if x_seeds.min() < lo or x_seeds.max() > hi:
            raise FuzzError("seeds outside bounds", op="Fuzzer.run",
                            expected=f"values in [{lo}, {hi}]",
                            got=f"[{x_seeds.min()}, {x_seeds.max()}]")
        rng = np.random.default_rng(self.seed)
        for c in self.criteria:
            if c.covered is not None:
                c.reset()
        logits, acts = self._activations(x_seeds, self.batch_size)
        ok = np.flatnonzero(logits.argmax(-1) == y_seeds)
        if len(ok) == 0:
            raise FuzzError("no seed is classified correctly", op="Fuzzer.run",
                            expected="at least one correctly classified seed", got=0)
        for c in self.criteria:
            c.update([a[ok] for a in acts])
        queue = [(x_seeds[i], i) for i in ok]
        report = FuzzReport(n_mutations=0)
        report.history.append((0, {c.name: c.coverage for c in self.criteria}))
        fails, fail_pred, fail_seed = [], [], []
        kinds = [getattr(m, "name", type(m).__name__) for m in self.mutations]
        tried = np.zeros(len(kinds), np.int64)
        found = np.zeros(len(kinds), np.int64)
        done = 0
        while done < n_mutations:
            # A fixed batch shape: Graph mode compiles each cell once.
            parents = rng.integers(len(queue), size=self.batch_size)
            batch, kind = zip(*(self._mutate(queue[p][0], x_seeds[queue[p][1]], rng)
                                for p in parents))
            batch, kind = np.stack(batch), np.array(kind)
            origin = np.array([queue[p][1] for p in parents])
            take = min(self.batch_size, n_mutations - done)
            batch, kind, origin = batch[:take], kind[:take], origin[:take]
            out, layer_acts = self.taps(np.concatenate(
                [batch, np.zeros((self.batch_size - take,) + batch.shape[1:], np.float32)]))
            pred = out[:take].argmax(-1)
            layer_acts = [a[:take] for a in layer_acts]
            wrong = pred != y_seeds[origin]
            np.add.at(tried, kind, 1)
            np.add.at(found, kind[wrong], 1)
            fails.append(batch[wrong]); fail_pred.append(pred[wrong]); fail_seed.append(origin[wrong])
            right = ~wrong
            gain = self.criteria[0].gains([a[right] for a in layer_acts])
            for c in self.criteria[1:]:
                c.update([a[right] for a in layer_acts])
            queue.extend((batch[right][i], origin[right][i]) for i in np.flatnonzero(gain))
            done += take
            report.history.append((done, {c.name: c.coverage for c in self.criteria}))
        report.n_mutations = done
        report.failures = np.concatenate(fails)
        report.failure_predictions = np.concatenate(fail_pred)
        report.failure_seeds = np.concatenate(fail_seed)
        report.failure_labels = y_seeds[report.failure_seeds]
        report.queue_size = len(queue)
        report.per_mutation = {k: (int(t), int(f)) for k, t, f in zip(kinds, tried, found)}
        return report
