import numpy as np

from sporeling.zoo.datasets import load_digits_split


def test_split_is_80_20_disjoint_and_reproducible():
    a, b = load_digits_split(seed=3), load_digits_split(seed=3)
    assert len(a.train_y) + len(a.test_y) == 1797 and len(a.test_y) == 359
    assert np.array_equal(a.test_x, b.test_x)
    assert a.train_x.dtype == np.float32 and a.train_x.shape[1:] == (1, 8, 8)
    assert 0.0 <= a.train_x.min() and a.train_x.max() <= 1.0
    train_rows = {r.tobytes() for r in a.train_x}
    assert sum(r.tobytes() in train_rows for r in a.test_x) < 5  # duplicates in the data only

