"""The digits fed through a sporeling.data pipeline (training on it: tests/test_cross_package.py)."""
import numpy as np
from sklearn.datasets import load_digits

import sporeling.data as sd
from sporeling.core import set_seed


def digits_pipeline(batch_size=64):
    digits = load_digits()
    x = (digits.data / 16.0).astype(np.float32)
    y = digits.target.astype(np.int32)
    return sd.NumpySlicesDataset((x, y), ["image", "label"]).shuffle(512).batch(batch_size)


def test_pipeline_is_a_re_iterable_of_numpy_tuples():
    set_seed(0)
    ds = digits_pipeline()
    epochs = [[(x, y) for x, y in ds] for _ in range(2)]
    assert len(epochs[0]) == ds.get_dataset_size() == 29
    x, y = epochs[0][0]
    assert x.shape == (64, 64) and x.dtype == np.float32 and y.dtype == np.int32
    assert not np.array_equal(epochs[0][0][1], epochs[1][0][1])  # reshuffled per epoch
