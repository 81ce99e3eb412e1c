"""The 8x8 handwritten digits that ship inside scikit-learn (1,797 images, 10 classes).

No download: the data is part of the scikit-learn wheel, read straight from its
``datasets/data/digits.csv.gz`` (importing ``sklearn.datasets`` would cost ~1.5 s of start-up,
a tenth of the main job). Pixels are scaled to [0, 1] and shaped (N, 1, 8, 8) float32;
labels are int32.

    >>> split = load_digits_split(seed=0)
    >>> split.train_x.shape, split.test_x.shape
    ((1438, 1, 8, 8), (359, 1, 8, 8))
"""
from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path

import numpy as np

__all__ = ["DigitsSplit", "load_digits_split", "load_digits_arrays"]


@dataclass(frozen=True)
class DigitsSplit:
    train_x: np.ndarray
    train_y: np.ndarray
    test_x: np.ndarray
    test_y: np.ndarray


def load_digits_split(test_fraction: float = 0.2, seed: int = 0) -> DigitsSplit:
    """A stratified-by-shuffle 80/20 split, the same for a given seed."""
    images, y = load_digits_arrays()
    x = (images / 16.0).astype(np.float32)[:, None]
    order = np.random.default_rng(seed).permutation(len(y))
    n_test = int(round(len(y) * test_fraction))
    test, train = order[:n_test], order[n_test:]
    return DigitsSplit(x[train], y[train], x[test], y[test])



def load_digits_arrays() -> tuple[np.ndarray, np.ndarray]:
    """``(images (1797, 8, 8) float64 in 0..16, labels int32)``, as
    ``sklearn.datasets.load_digits`` gives them, from the file in the scikit-learn wheel."""
    spec = importlib.util.find_spec("sklearn")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("the digits ship inside scikit-learn: pip install scikit-learn")
    path = Path(list(spec.submodule_search_locations)[0]) / "datasets" / "data" / "digits.csv.gz"
    table = np.loadtxt(path, delimiter=",")
    return table[:, :-1].reshape(-1, 8, 8), table[:, -1].astype(np.int32)
