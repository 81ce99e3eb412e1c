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



def test_the_file_read_directly_is_what_sklearn_loads():
    from sklearn.datasets import load_digits

    from sporeling.zoo.datasets.digits import load_digits_arrays
    images, labels = load_digits_arrays()
    reference = load_digits()
    np.testing.assert_array_equal(images, reference.images)
    np.testing.assert_array_equal(labels, reference.target)
    assert labels.dtype == np.int32 and images.shape == (1797, 8, 8)
