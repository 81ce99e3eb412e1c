"""Dict columns (MindSpore 2.10's): a generator's or a map's dict stays a dict through
``map``, ``batch`` (each key batched, nested dicts too) and the iterators; mismatched keys
and process workers are refused with what to do."""
import numpy as np
import pytest

import sporeling.data as sd
from sporeling.data import DataError
from sporeling.data.errors import WorkerError


def _source():
    def gen():
        for i in range(6):
            yield {"n": i, "inner": {"powers": np.power(i, [1, 2])}}, i
    return sd.GeneratorDataset(gen, column_names=["col1", "col2"])


def test_a_dict_column_stays_a_dict_through_map_and_iterators():
    data = _source().map(lambda d: {**d, "square": d["n"] ** 2}, input_columns=["col1"])
    rows = list(data.create_dict_iterator(num_epochs=1))
    assert [sorted(r["col1"]) for r in rows] == [["inner", "n", "square"]] * 6
    assert [int(r["col1"]["square"]) for r in rows] == [i * i for i in range(6)]
    assert isinstance(rows[2]["col1"]["inner"]["powers"], np.ndarray)


def test_batch_stacks_each_key_of_a_dict_column():
    rows = list(_source().batch(3).create_dict_iterator(num_epochs=1))
    first = rows[0]["col1"]
    np.testing.assert_array_equal(first["n"], [0, 1, 2])
    np.testing.assert_array_equal(first["inner"]["powers"], [[0, 0], [1, 1], [2, 4]])
    np.testing.assert_array_equal(rows[1]["col2"], [3, 4, 5])


def test_dicts_of_different_keys_do_not_batch():
    def gen():
        yield ({"a": 1},)
        yield ({"b": 2},)
    data = sd.GeneratorDataset(gen, column_names=["c"]).batch(2)
    with pytest.raises(DataError, match="different keys"):
        list(data.create_tuple_iterator(num_epochs=1))


def test_process_workers_refuse_a_dict_column_and_say_use_threads():
    data = sd.GeneratorDataset(lambda: iter([(1,), (2,)]), column_names=["x"]).map(
        lambda x: {"x": x}, ["x"], num_parallel_workers=2, python_multiprocessing=True)
    with pytest.raises(WorkerError, match="dict column") as info:   # reported from the worker
        list(data.create_tuple_iterator(num_epochs=1))
    assert "python_multiprocessing=False" in str(info.value)
