"""``BleuScore`` (machine translation) and ``Perplexity`` (language models)."""
from __future__ import annotations

import math
from collections import Counter

import numpy as np

from ._base import Metric, MetricError, as_array, check_count, check_type, not_updated, \
    rearrange_inputs

__all__ = ["BleuScore", "Perplexity"]


def _ngrams(tokens, n_max: int) -> Counter:
    """Every 1..n_max-gram of ``tokens`` with its count."""
    return Counter(tuple(tokens[i:i + n]) for n in range(1, n_max + 1)
                   for i in range(len(tokens) - n + 1))


class BleuScore(Metric):
    """BLEU over a corpus: the geometric mean of the clipped 1..``n_gram`` precisions times
    the brevity penalty ``exp(1 - r / c)`` (``c``: candidate length, ``r``: the length of
    the reference closest to each candidate). ``smooth`` adds 1 to each precision's
    numerator and denominator. A corpus with no matching ``n``-gram for some ``n`` scores 0."""

    def __init__(self, n_gram=4, smooth=False):
        super().__init__()
        check_type("n_gram", n_gram, (int,), "BleuScore")
        if not 1 <= n_gram <= 4:
            raise ValueError(f"For 'BleuScore', 'n_gram' must be in [1, 4], but got {n_gram}.")
        self.n_gram = n_gram
        self.smooth = check_type("smooth", smooth, (bool,), "BleuScore")
        self.clear()

    def clear(self):
        self._numerator = np.zeros(self.n_gram)
        self._denominator = np.zeros(self.n_gram)
        self._c = self._r = 0.0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        """``update(candidate_corpus, reference_corpus)``: a list of token lists, and for
        each candidate a list of reference token lists."""
        check_count(inputs, 2, "BleuScore.update", "candidate_corpus, reference_corpus")
        candidates, references = inputs
        if len(candidates) != len(references):
            raise MetricError("one list of references per candidate", op="BleuScore.update",
                              expected=len(candidates), got=len(references))
        for candidate, refs in zip(candidates, references):
            self._c += len(candidate)
            self._r += min((len(r) for r in refs), key=lambda n: abs(len(candidate) - n))
            counts = _ngrams(candidate, self.n_gram)
            best = Counter()
            for ref in refs:
                best |= _ngrams(ref, self.n_gram)
            for gram, k in (counts & best).items():
                self._numerator[len(gram) - 1] += k
            for gram, k in counts.items():
                self._denominator[len(gram) - 1] += k
        self._is_update = True

    def eval(self):
        if not self._is_update:
            raise not_updated("BleuScore")
        if self._numerator.min() == 0.0:
            return np.array(0.0)
        if self.smooth:
            precision = (self._numerator + 1) / (self._denominator + 1)
        else:
            precision = self._numerator / self._denominator
        geometric_mean = np.exp(np.mean(np.log(precision)))
        penalty = 1.0 if self._c > self._r else np.exp(1 - self._r / self._c)
        return np.float64(penalty * geometric_mean)


class Perplexity(Metric):
    """``exp(-mean(log p[label]))`` over the labels seen, from probabilities ``(N, C)``
    (``p`` floored at 1e-10); labels equal to ``ignore_label`` are left out."""

    def __init__(self, ignore_label=None):
        super().__init__()
        if ignore_label is not None:
            check_type("ignore_label", ignore_label, (int,), "Perplexity")
        self.ignore_label = ignore_label
        self.clear()

    def clear(self):
        self._sum_metric, self._num_inst = 0.0, 0

    @rearrange_inputs
    def update(self, *inputs):
        """``update(preds, labels)``: probabilities ``(..., C)`` and class labels ``(...)``."""
        check_count(inputs, 2, "Perplexity.update", "preds, labels")
        pred, label = as_array(inputs[0], "Perplexity"), as_array(inputs[1], "Perplexity")
        if label.size * pred.shape[-1] != pred.size:
            raise MetricError("one label per row of predictions", op="Perplexity.update",
                              expected=f"{pred.size // pred.shape[-1]} labels",
                              got=label.shape)
        label = label.reshape(-1)
        probs = pred.reshape(-1, pred.shape[-1])[np.arange(label.size), label.astype(int)]
        keep = np.ones(label.size, bool) if self.ignore_label is None else \
            label != self.ignore_label
        self._sum_metric -= float(np.sum(np.log(np.maximum(1e-10, probs[keep]))))
        self._num_inst += int(keep.sum())

    def eval(self) -> float:
        if self._num_inst == 0:
            raise RuntimeError("Perplexity: no samples were seen (call update() before eval())")
        return math.exp(self._sum_metric / self._num_inst)
