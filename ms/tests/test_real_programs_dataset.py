"""Issue 22: ``GeneratorDataset`` with MindSpore 2.10's signature and default shuffle
(``shuffle=None`` shuffles a random-accessible source, reads an iterable in order)."""
import numpy as np
import pytest

import sporeling.ms as ms
from sporeling.ms import dataset as ds


class Source:
    def __getitem__(self, i):
        return (np.array(i, np.float16),)

    def __len__(self):
        return 10


def _order(d):
    return [int(r[0]) for r in d.create_tuple_iterator(output_numpy=True)]


def test_random_access_source_shuffles_by_default():
    # 2.10 with set_seed(0): [0, 2, 1, 5, 9, 8, 4, 7, 6, 3] (a shuffled order; the facade's
    # generator differs from MindSpore's, so the order itself is not compared)
    ds.config.set_seed(0)
    first = _order(ds.GeneratorDataset(Source(), ["a"]))
    assert sorted(first) == list(range(10)) and first != list(range(10))
    lst = _order(ds.GeneratorDataset([(np.array(i),) for i in range(10)], ["a"]))
    assert sorted(lst) == list(range(10)) and lst != list(range(10))  # a list too
    assert _order(ds.GeneratorDataset(Source(), ["a"], shuffle=False)) == list(range(10))


def test_generator_source_in_order():
    def gen():
        for i in range(10):
            yield (np.array(i),)
    assert _order(ds.GeneratorDataset(gen, ["a"])) == list(range(10))


def test_2_10_keywords():
    d = ds.GeneratorDataset(Source(), column_names=["a"], num_parallel_workers=4,
                            shuffle=False, python_multiprocessing=True, max_rowsize=16,
                            column_types=[ms.float16])
    assert d.get_dataset_size() == 10 and _order(d) == list(range(10))
    with pytest.raises(ValueError):
        ds.GeneratorDataset(Source(), ["a"], num_parallel_workers=0)
    with pytest.raises(NotImplementedError):
        ds.GeneratorDataset(Source(), ["a"], collate_fn=lambda *a: a)
    # 2.10: column_types is checked, not cast (float16 data, float32 declared: an error)
    bad = ds.GeneratorDataset(Source(), ["a"], column_types=[ms.float32], shuffle=False)
    with pytest.raises(Exception, match="column_types"):
        _order(bad)
