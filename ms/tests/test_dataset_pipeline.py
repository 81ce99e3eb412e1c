"""ms.dataset's Dataset methods (MindSpore 2.10's GeneratorDataset API) on small
generators, checked against plain-Python expectations."""
import threading

import numpy as np
import pytest

import sporeling.ms as ms
from sporeling.data import DataError
from sporeling.ms import dataset as ds


class Items:
    """A random-access source of (x, label) rows."""

    def __init__(self, n=6):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return np.array([i, i * 10], np.int32), np.int32(i % 2)


def make(n=6, **kw):
    return ds.GeneratorDataset(Items(n), ["x", "label"], shuffle=False, **kw)


def xs(dataset):
    return [int(r[0][0]) for r in dataset.create_tuple_iterator(output_numpy=True)]


def test_chainable_operations_and_getters():
    d = make().map(lambda x: x + 1, "x").batch(4)
    assert d.get_batch_size() == 4 and d.get_dataset_size() == 2
    assert d.get_col_names() == ["x", "label"]
    assert d.output_shapes() == [[4, 2], [4]]
    assert [np.dtype(t) for t in d.output_types()] == [np.int32, np.int32]
    assert make().repeat(3).get_repeat_count() == 3 and make().get_repeat_count() == 1
    assert xs(make().skip(2).take(3)) == [2, 3, 4]
    assert xs(make().filter(lambda label: label == 0, ["label"])) == [0, 2, 4]
    assert make().project(["label"]).get_col_names() == ["label"]
    assert make().rename(["x"], ["y"]).get_col_names() == ["y", "label"]
    assert xs(make(2).concat(make(3))) == [0, 1, 0, 1, 2]
    zipped = make(3).zip(make(3).rename(["x", "label"], ["a", "b"]))
    assert zipped.get_col_names() == ["x", "label", "a", "b"]
    assert ds.zip((make(3), make(2).rename(["x", "label"], ["a", "b"]))).get_dataset_size() == 2
    parts = make().split([4, 2], randomize=False)
    assert [p.get_dataset_size() for p in parts] == [4, 2]
    assert make().apply(lambda d: d.take(2)).get_dataset_size() == 2
    with pytest.raises(DataError):
        make().apply(lambda d: 3)
    assert not make().is_shuffled() and make().shuffle(4).is_shuffled()
    assert ds.GeneratorDataset(Items(), ["x", "label"], num_shards=2, shard_id=0).is_sharded()
    assert make().num_classes() is None and make().get_class_indexing() == {}


def test_iterators_give_tensors_unless_numpy():
    row = next(make().create_tuple_iterator())
    assert isinstance(row[0], ms.Tensor)
    row = next(make().create_dict_iterator(output_numpy=True))
    assert isinstance(row["x"], np.ndarray)


def test_padded_and_bucket_batches():
    def ragged():
        for n in (1, 3, 2, 5):
            yield (np.arange(n),)
    out = list(ds.GeneratorDataset(ragged, ["v"]).padded_batch(2, pad_info={"v": (None, -1)})
               .create_tuple_iterator(output_numpy=True))
    np.testing.assert_array_equal(out[0][0], [[0, -1, -1], [0, 1, 2]])
    buckets = ds.GeneratorDataset(ragged, ["v"]).bucket_batch_by_length(
        ["v"], [3], [2, 2], pad_info={"v": (None, 0)})
    sizes = sorted(b[0].shape for b in buckets.create_tuple_iterator(output_numpy=True))
    assert sizes == [(2, 2), (2, 5)]


def test_flat_map_concatenates_returned_datasets():
    d = ds.NumpySlicesDataset({"n": np.array([2, 3])}, shuffle=False)
    out = d.flat_map(lambda n: ds.NumpySlicesDataset({"v": np.arange(int(n))}, shuffle=False))
    assert [int(r[0]) for r in out.create_tuple_iterator(output_numpy=True)] == [0, 1, 0, 1, 2]
    assert out.get_col_names() == ["v"]


def test_sync_wait_blocks_until_update():
    got = []
    d = make(4).sync_wait("cond", num_batch=1, callback=got.append)
    assert d.is_sync() and list(d.get_sync_notifiers()) == ["cond"]
    it = d.create_tuple_iterator(output_numpy=True)
    assert int(next(it)[0][0]) == 0
    blocked = []
    t = threading.Thread(target=lambda: blocked.append(int(next(it)[0][0])))
    t.start()
    t.join(0.3)
    assert blocked == []          # the second row waits for sync_update
    d.sync_update("cond", data="step")
    t.join(2)
    assert blocked == [1] and got == ["step"]
    d.disable_sync()
    assert [int(r[0][0]) for r in it] == [2, 3]


def test_callbacks_see_every_step_and_epoch():
    events = []

    class Log(ds.DSCallback):
        def ds_begin(self, c):
            events.append(("begin", c.cur_epoch_num))

        def ds_epoch_begin(self, c):
            events.append(("epoch", c.cur_epoch_num))

        def ds_step_end(self, c):
            events.append(("step", c.cur_step_num))

        def ds_epoch_end(self, c):
            events.append(("end", c.cur_epoch_num))
    d = make(3).map(lambda x: x, "x", callbacks=[Log(step_size=2)])
    list(d.create_tuple_iterator(num_epochs=1))
    assert events == [("begin", 1), ("epoch", 1), ("step", 1), ("step", 3), ("end", 1)]


def test_waited_callback_waits_for_training_steps():
    seen = []

    class Sync(ds.WaitedDSCallback):
        def sync_step_begin(self, train_run_context, ds_run_context):
            seen.append((train_run_context, ds_run_context.cur_step_num))
    cb = Sync()
    it = make(3).map(lambda x: x, "x", callbacks=[cb]).create_tuple_iterator(num_epochs=1)
    next(it)
    cb.step_end("train-1")
    next(it)
    assert seen == [("train-1", 2)]


def test_samplers_use_add_and_pk():
    d = make(6)
    d.use_sampler(ds.SubsetSampler([5, 1]))
    assert xs(d) == [5, 1]
    d = make(6)
    d.add_sampler(ds.SubsetSampler([4, 3, 2]))
    assert xs(d) == [4, 3, 2]
    pk = ds.GeneratorDataset(Items(6), ["x", "label"], sampler=ds.PKSampler(2))
    assert xs(pk) == [0, 2, 1, 3]


def test_init_step_starts_part_way():
    d = make(5)
    d.set_init_step(3)
    assert d.get_init_step() == 3 and xs(d) == [3, 4]


def test_send_and_recv_move_rows():
    d = make(2)
    d.send(num_epochs=1)
    rows = [d.recv(), d.recv(), d.recv()]
    assert isinstance(rows[0][0], ms.Tensor) and rows[2] is None
    assert int(rows[1][0].asnumpy()[0]) == 1
    assert d.device_que().get_col_names() == ["x", "label"]


def test_save_then_mind_dataset_reads_it(tmp_path):
    path = str(tmp_path / "data.mindrecord")
    make(4).save(path)
    back = ds.MindDataset(path, shuffle=False)
    rows = list(back.create_dict_iterator(output_numpy=True))
    assert [r["x"].tolist() for r in rows] == [[i, i * 10] for i in range(4)]


def test_serialize_round_trip(tmp_path):
    pipeline = ds.NumpySlicesDataset({"a": np.arange(6)}, shuffle=False).skip(1).batch(2)
    as_json = ds.serialize(pipeline, str(tmp_path / "p.json"))
    assert as_json["op_type"] == "batch" and as_json["children"][0]["op_type"] == "skip"
    rebuilt = ds.deserialize(json_filepath=str(tmp_path / "p.json"))
    assert [r[0].tolist() for r in rebuilt.create_tuple_iterator(output_numpy=True)] == \
        [[1, 2], [3, 4], [5]]
    assert ds.compare(pipeline, rebuilt)
    assert not ds.compare(pipeline, pipeline.repeat(2))
    ds.show(pipeline)
    assert pipeline.to_json() == ds.serialize(pipeline)


def test_ir_hooks_return_the_pipeline():
    d = make()
    tree, api = d.create_ir_tree()
    assert api is d and tree is d.parse_tree() is d.parse()
    assert d.post_parse(tree) is tree and d.pre_parse(False) is None
    assert d.iterator_bootstrap() is None and d.prepare_multiprocessing() is None
    d.input_indexs = (1,)
    assert d.input_indexs == (1,)
    d.copy_batch_size(7)
    assert d.get_batch_size() == 7
    d.reset()


def test_image_folder_class_indexing(tmp_path):
    from PIL import Image
    for name in ("cat", "dog"):
        (tmp_path / name).mkdir()
        Image.fromarray(np.zeros((2, 2, 3), np.uint8)).save(tmp_path / name / "a.png")
    d = ds.ImageFolderDataset(str(tmp_path), shuffle=False)
    assert d.get_class_indexing() == {"cat": 0, "dog": 1} and d.num_classes() == 2
    assert d.batch(2).get_class_indexing() == {"cat": 0, "dog": 1}
