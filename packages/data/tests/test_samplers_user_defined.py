"""MindSpore's user-defined samplers: a ``Sampler`` subclass with only ``__iter__``, and a
plain iterable of indices (a list, a class with ``__getitem__``/``__len__``)."""
import numpy as np
import pytest

import sporeling.data as sd
from sporeling.data import DataError

DATA = np.arange(12) * 10


class EveryOther(sd.Sampler):
    def __iter__(self):
        yield from range(0, self.dataset_size, 2)  # dataset_size is set, as MindSpore sets it


class Indexed:
    def __init__(self):
        self.ids = [3, 4, 3, 11]

    def __getitem__(self, i):
        return self.ids[i]

    def __len__(self):
        return len(self.ids)


def _values(sampler):
    ds = sd.NumpySlicesDataset(DATA, column_names=["x"], sampler=sampler)
    return [int(r[0]) for r in ds.create_tuple_iterator(output_numpy=True)]


def test_iter_only_sampler():
    assert _values(EveryOther()) == [0, 20, 40, 60, 80, 100]
    assert _values(EveryOther(num_samples=2)) == [0, 20]


@pytest.mark.parametrize("indices", [Indexed(), [3, 4, 3, 11], (3, 4, 3, 11)])
def test_iterable_of_indices(indices):
    assert _values(indices) == [30, 40, 30, 110]


def test_neither_is_an_error():
    with pytest.raises(NotImplementedError, match="neither"):
        sd.Sampler().indices(5, 0)
    with pytest.raises(DataError, match="iterable of indices"):
        _values(3.5)
