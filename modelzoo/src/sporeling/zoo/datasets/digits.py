"""The 8x8 handwritten digits that ship inside scikit-learn (1,797 images, 10 classes).

No download: the data is part of the scikit-learn wheel. Pixels are scaled to [0, 1] and
shaped (N, 1, 8, 8) float32; labels are int32.

    >>> split = load_digits_split(seed=0)
    >>> split.train_x.shape, split.test_x.shape
    ((1438, 1, 8, 8), (359, 1, 8, 8))
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["DigitsSplit", "load_digits_split"]


@dataclass(frozen=True)
class DigitsSplit:
    train_x: np.ndarray
    train_y: np.ndarray
    test_x: np.ndarray
    test_y: np.ndarray


def load_digits_split(test_fraction: float = 0.2, seed: int = 0) -> DigitsSplit:
    """A stratified-by-shuffle 80/20 split, the same for a given seed."""
    from sklearn.datasets import load_digits
    data = load_digits()
    x = (data.images / 16.0).astype(np.float32)[:, None]
    y = data.target.astype(np.int32)
    order = np.random.default_rng(seed).permutation(len(y))
    n_test = int(round(len(y) * test_fraction))
    test, train = order[:n_test], order[n_test:]
    return DigitsSplit(x[train], y[train], x[test], y[test])

