"""Chainable operations, sizes, shapes and iterators."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import sporeling.data as sd
from sporeling.core import set_seed
from sporeling.data import DataError


def seq(n, **kw):
    return sd.NumpySlicesDataset((np.arange(n), np.arange(n) * 10), ["x", "y"], shuffle=False,
                                 **kw)


def values(ds, col=0):
    return [np.asarray(r[col]).tolist() for r in ds]


def test_batch_drop_remainder_and_sizes():
    assert values(seq(7).batch(3)) == [[0, 1, 2], [3, 4, 5], [6]]
    assert values(seq(7).batch(3, drop_remainder=True)) == [[0, 1, 2], [3, 4, 5]]
    assert seq(7).batch(3).get_dataset_size() == 3
    assert seq(7).batch(3, True).get_dataset_size() == 2


def test_batch_padding_and_per_batch_map():
    ds = sd.GeneratorDataset([(np.arange(n),) for n in (1, 3, 2)], ["t"], shuffle=False)
    with pytest.raises(DataError, match="different shapes"):
        list(ds.batch(3))
    (b,) = next(iter(ds.batch(3, pad_info={"t": (None, -1)})))
    assert b.tolist() == [[0, -1, -1], [0, 1, 2], [0, 1, -1]]
    (b,) = next(iter(ds.batch(3, pad_info={"t": ([4], 9)})))
    assert b.shape == (3, 4)

    def scale(x, y, info):
        return x * 100 + info.get_batch_num(), y
    out = list(seq(4).batch(2, per_batch_map=scale))
    assert out[1][0].tolist() == [201, 301] and out[1][1].tolist() == [20, 30]


def test_shuffle_is_a_permutation_reproducible_and_new_each_epoch():
    set_seed(5)
    ds = seq(50).shuffle(8)
    e0, e1 = values(ds), values(ds)
    assert sorted(e0) == list(range(50)) and e0 != list(range(50)) and e0 != e1
    ds.reset()
    assert values(ds) == e0
    set_seed(5)
    assert values(seq(50).shuffle(8)) == e0


@settings(max_examples=40, deadline=None)
@given(n=st.integers(0, 40), buffer=st.integers(2, 50), size=st.integers(1, 9),
       drop=st.booleans(), source_shuffles=st.booleans(), seed=st.integers(0, 2**31))
def test_a_batch_gathered_by_index_equals_the_rows_stacked(n, buffer, size, drop,
                                                          source_shuffles, seed):
    """Over an in-memory source (shuffled or not), ``batch`` indexes each column once per
    batch; the batches are exactly the rows the same pipeline yields unbatched, stacked."""
    x = np.arange(n * 6, dtype=np.float32).reshape(n, 2, 3)
    labels = np.arange(n, dtype=np.int16) * 10

    def pipeline():
        set_seed(seed)
        return sd.NumpySlicesDataset((x, labels), ["x", "label"], shuffle=source_shuffles) \
            .shuffle(buffer)

    assert pipeline()._gatherer() is not None
    rows = list(pipeline())
    whole = len(rows) - len(rows) % size if drop else len(rows)
    want = [rows[i:i + size] for i in range(0, whole, size)]
    got = list(pipeline().batch(size, drop_remainder=drop))
    assert len(got) == len(want)
    for batch, chunk in zip(got, want):
        for c in range(2):
            expected = np.stack([r[c] for r in chunk])
            assert batch[c].dtype == expected.dtype
            np.testing.assert_array_equal(batch[c], expected)


def test_repeat_take_skip_filter_project_rename():
    assert values(seq(3).repeat(2)) == [0, 1, 2, 0, 1, 2]
    assert seq(3).repeat(2).get_dataset_size() == 6
    assert values(seq(10).skip(2).take(3)) == [2, 3, 4]
    assert values(seq(10).repeat().take(12))[-2:] == [0, 1]
    f = seq(10).filter(lambda x: x % 3 == 0, ["x"])
    assert values(f) == [0, 3, 6, 9] and f.get_dataset_size() == 4
    p = seq(3).project(["y"])
    assert p.get_col_names() == ["y"] and values(p) == [0, 10, 20]
    r = seq(3).rename(["x"], ["z"])
    assert r.get_col_names() == ["z", "y"]
    with pytest.raises(DataError, match="unknown column"):
        seq(3).project(["nope"])


def test_zip_concat_and_split():
    a = seq(3)
    b = sd.NumpySlicesDataset(np.arange(5) + 100, ["w"], shuffle=False)
    z = a.zip(b)
    assert z.get_col_names() == ["x", "y", "w"] and z.get_dataset_size() == 3
    assert [int(r[2]) for r in z] == [100, 101, 102]
    with pytest.raises(DataError, match="share a column"):
        a.zip(seq(2))
    c = a + seq(2)
    assert values(c) == [0, 1, 2, 0, 1] and c.get_dataset_size() == 5
    set_seed(0)
    src = sd.NumpySlicesDataset(np.arange(20), ["v"])
    train, test = src.split([0.75, 0.25])
    tr = [values(train) for _ in range(2)]
    te = values(test)
    assert len(tr[0]) == 15 and len(te) == 5 and tr[0] != tr[1]
    assert set(tr[0]) == set(tr[1]) and not set(tr[0]) & set(te)
    first, second = seq(10).batch(2).split([3, 2], randomize=False)
    assert len(values(first)) == 3 and values(second)[0] == [6, 7]


def test_bucket_batch_by_length():
    lengths = [1, 5, 2, 6, 3, 7]
    ds = sd.GeneratorDataset([(np.ones(n, np.int32),) for n in lengths], ["t"],
                             shuffle=False)
    out = [b[0].shape for b in ds.bucket_batch_by_length(
        ["t"], [4], [2, 3], pad_info={"t": (None, 0)})]
    assert out == [(2, 2), (3, 7), (1, 3)]  # short bucket x2, long bucket x3, leftover
    padded = [b[0].shape for b in ds.bucket_batch_by_length(
        ["t"], [4], [2, 3], pad_info={"t": (None, 0)}, pad_to_bucket_boundary=True,
        drop_remainder=True)]
    assert padded == [(2, 3), (3, 7)]


def test_shapes_types_and_iterators():
    ds = sd.NumpySlicesDataset({"img": np.zeros((6, 2, 3), np.float32),
                                "label": np.arange(6, dtype=np.int32)}, shuffle=False).batch(4)
    assert ds.output_shapes() == [[4, 2, 3], [4]]
    assert ds.output_types() == [np.float32, np.int32]
    it = ds.create_tuple_iterator(columns=["label"], num_epochs=2)
    epochs = [[b[0].tolist() for b in it] for _ in range(3)]
    assert epochs == [[[0, 1, 2, 3], [4, 5]]] * 2 + [[]]
    d = next(ds.create_dict_iterator(num_epochs=1))
    assert list(d) == ["img", "label"]
    with pytest.raises(DataError, match="num_epochs"):
        ds.create_tuple_iterator(num_epochs=0)


def test_user_function_errors_name_the_sample():
    def bad(x):
        if x == 4:
            raise KeyError("four")
        return x
    with pytest.raises(sd.WorkerError) as info:
        list(seq(6).map(bad, ["x"]))
    assert info.value.index == 4 and "KeyError" in str(info.value)
    assert "raise KeyError" in info.value.worker_traceback
