"""A synthetic but meaningful labelled text set for the LSTM classifier: short "reviews"
whose sentiment depends on word order, so a bag of words cannot read them.

A review is one or two clauses: ``[opener] subject verb [not|never] [intensifier]
adjective``. Negation flips the adjective's polarity; two clauses joined by "but" take the
second clause's sentiment ("the plot was dull but the ending was great" is positive);
joined by "and" both clauses agree. The label is 1 for positive, 0 for negative. Generated
from a seed with NumPy: nothing to download, the same on every machine.

    >>> texts, labels = make_reviews(3, seed=1)
    >>> len(texts), sorted(set(labels)) <= [0, 1]
    (3, True)
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

__all__ = ["VOCAB", "make_reviews", "encode_reviews", "load_reviews", "MAX_LEN"]

_SUBJECTS = ["the movie", "the film", "the plot", "the acting", "the ending", "the music",
             "this book", "the story", "the cast", "the script", "the dialogue", "the pacing"]
_VERBS = ["was", "is", "seemed", "felt"]
_POSITIVE = ["good", "great", "superb", "brilliant", "fun", "moving", "clever", "lovely",
             "gripping", "charming"]
_NEGATIVE = ["bad", "dull", "awful", "boring", "weak", "clumsy", "tedious", "bland",
             "poor", "messy"]
_INTENSIFIERS = ["very", "really", "quite", "truly"]
_OPENERS = ["honestly", "overall", "i think", "frankly"]
_NEGATIONS = ["not", "never"]

VOCAB = ["<pad>", "<unk>", "but", "and"] + sorted({w for group in (
    _SUBJECTS, _VERBS, _POSITIVE, _NEGATIVE, _INTENSIFIERS, _OPENERS, _NEGATIONS)
    for phrase in group for w in phrase.split()})
_INDEX = {w: i for i, w in enumerate(VOCAB)}
MAX_LEN = 16  # the longest review: a 2-word opener, two 6-word clauses and "but"


def _clause(rng, positive: bool) -> str:
    words = [rng.choice(_SUBJECTS), rng.choice(_VERBS)]
    negated = rng.random() < 0.4
    if negated:
        words.append(rng.choice(_NEGATIONS))
    if rng.random() < 0.4:
        words.append(rng.choice(_INTENSIFIERS))
    adjective_positive = positive != negated
    words.append(rng.choice(_POSITIVE if adjective_positive else _NEGATIVE))
    return " ".join(words)


def make_reviews(n: int, seed: int) -> tuple[list[str], list[int]]:
    """``n`` reviews and their labels, balanced in expectation."""
    rng = np.random.default_rng(seed)
    texts, labels = [], []
    for _ in range(n):
        label = int(rng.random() < 0.5)
        form = rng.random()
        if form < 0.4:
            text = _clause(rng, bool(label))
        elif form < 0.7:
            text = f"{_clause(rng, not label)} but {_clause(rng, bool(label))}"
        else:
            text = f"{_clause(rng, bool(label))} and {_clause(rng, bool(label))}"
        if rng.random() < 0.3:
            text = f"{rng.choice(_OPENERS)} {text}"
        texts.append(text)
        labels.append(label)
    return texts, labels


def encode_reviews(texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Word ids (N, MAX_LEN) int32 padded with 0, and lengths (N,) int32."""
    ids = np.zeros((len(texts), MAX_LEN), np.int32)
    lengths = np.zeros(len(texts), np.int32)
    for row, text in enumerate(texts):
        words = [_INDEX.get(w, 1) for w in text.split()][:MAX_LEN]
        ids[row, :len(words)] = words
        lengths[row] = len(words)
    return ids, lengths


@lru_cache(maxsize=2)
def load_reviews(split: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(ids, lengths, labels)``: "train" has 4,000 reviews (seed 11), "test" 1,000
    (seed 12). Generated once per process (a second), returned read-only."""
    n, seed = {"train": (4000, 11), "test": (1000, 12)}[split]
    texts, labels = make_reviews(n, seed)
    ids, lengths = encode_reviews(texts)
    arrays = ids, lengths, np.array(labels, np.int32)
    for a in arrays:
        a.setflags(write=False)
    return arrays
