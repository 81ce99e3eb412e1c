"""Parallel map: determinism at any worker count, errors, shutdown, shared memory."""
import multiprocessing as mp
import os

import numpy as np
import psutil
import pytest

import sporeling.data as sd
from sporeling.core import set_seed
from sporeling.data import sample_rng, vision

IMAGES = np.random.default_rng(0).integers(0, 255, (40, 12, 12, 3), dtype=np.uint8)


def no_children_left():
    """No worker is left: multiprocessing knows none and the OS lists none (except
    multiprocessing's own resource tracker, which lives as long as this process)."""
    assert mp.active_children() == []
    left = [p for p in psutil.Process(os.getpid()).children(recursive=True)
            if "resource_tracker" not in " ".join(p.cmdline())]
    assert left == []


def augmented(workers, processes, epochs=2):
    set_seed(11)
    ds = sd.NumpySlicesDataset((IMAGES, np.arange(40)), ["image", "label"])
    ds = ds.shuffle(16).map([vision.RandomCrop(10, padding=2), vision.RandomHorizontalFlip(),
                             vision.RandomRotation(20), vision.Normalize([0] * 3, [255] * 3),
                             vision.HWC2CHW()], ["image"], num_parallel_workers=workers,
                            python_multiprocessing=processes, chunk_size=3)
    ds = ds.map(lambda y: y + sample_rng().integers(1000), ["label"],
                num_parallel_workers=workers, python_multiprocessing=processes)
    it = ds.batch(8).create_tuple_iterator(num_epochs=epochs)
    return [[(x.copy(), y.copy()) for x, y in it] for _ in range(epochs)]


@pytest.mark.parametrize("processes", [True, False], ids=["processes", "threads"])
def test_same_samples_and_augmentations_at_1_2_and_4_workers(processes):
    reference = augmented(None, False)
    assert not all(np.array_equal(a[0], b[0]) for a, b in zip(*reference))  # epochs differ
    for workers in (1, 2, 4):
        got = augmented(workers, processes)
        for epoch_ref, epoch_got in zip(reference, got):
            for (x0, y0), (x1, y1) in zip(epoch_ref, epoch_got):
                assert np.array_equal(x0, x1) and np.array_equal(y0, y1)
    no_children_left()


def failing(x):
    if int(x) == 23:
        raise ValueError("bad sample twenty-three")
    return x


@pytest.mark.parametrize("processes", [True, False], ids=["processes", "threads"])
def test_worker_exception_surfaces_with_index_and_traceback_and_stops_workers(processes):
    ds = sd.NumpySlicesDataset(np.arange(64), shuffle=False).map(
        failing, num_parallel_workers=2, python_multiprocessing=processes, chunk_size=4)
    with pytest.raises(sd.WorkerError) as info:
        for _ in ds:
            pass
    err = info.value
    assert err.index == 23 and err.exc_type == "ValueError"
    assert "bad sample twenty-three" in str(err) and "in failing" in err.worker_traceback
    no_children_left()


def test_dead_worker_is_reported_not_waited_for():
    def die(x):
        if int(x) == 5:
            os._exit(3)
        return x
    ds = sd.NumpySlicesDataset(np.arange(32), shuffle=False).map(
        die, num_parallel_workers=2, python_multiprocessing=True, chunk_size=2)
    with pytest.raises(sd.WorkerError, match=r"died \(exit code 3\)"):
        list(ds)
    no_children_left()


def test_large_and_ragged_outputs_grow_the_shared_slots():
    ds = sd.NumpySlicesDataset(np.arange(6), shuffle=False).map(
        lambda i: np.full((int(i) * 300 + 1, 256), i, np.float32),  # up to 1.5 MiB each
        num_parallel_workers=2, python_multiprocessing=True, chunk_size=3)
    rows = [r[0] for r in ds]
    assert [r.shape[0] for r in rows] == [1, 301, 601, 901, 1201, 1501]
    assert all((r == i).all() for i, r in enumerate(rows))
    no_children_left()


def test_object_outputs_are_refused_in_processes():
    ds = sd.NumpySlicesDataset(np.arange(4), shuffle=False).map(
        lambda x: np.array([{"a": 1}], dtype=object), num_parallel_workers=1,
        python_multiprocessing=True)
    with pytest.raises(sd.WorkerError, match="Python objects"):
        list(ds)
    no_children_left()


def test_leaving_an_epoch_early_then_iterating_again():
    ds = sd.NumpySlicesDataset(np.arange(100), shuffle=False).map(
        lambda x: x * 2, num_parallel_workers=2, python_multiprocessing=True, chunk_size=4)
    it = ds.create_tuple_iterator(num_epochs=2)
    first = [int(r[0]) for _, r in zip(range(5), it)]
    assert first == [0, 2, 4, 6, 8]
    it._epoch_rows.close()   # abandon the epoch: in-flight chunks are drained
    it._epoch_rows = None
    assert [int(r[0]) for r in it][:3] == [0, 2, 4]
    it.close()
    no_children_left()


def test_profile_report_names_the_slow_stage():
    import time

    def slow(x):
        time.sleep(0.002)
        return x
    ds = sd.NumpySlicesDataset(np.arange(60), shuffle=False).map(slow).batch(10)
    list(ds)
    report = ds.profile_report()
    assert [s.name for s in report.stages] == ["NumpySlicesDataset", "Map", "Batch"]
    assert report.bottleneck.name == "Map" and report.stages[1].rows == 60
    assert "bottleneck: Map" in str(report)
    par = sd.NumpySlicesDataset(np.arange(60), shuffle=False).map(
        slow, num_parallel_workers=2, python_multiprocessing=True, chunk_size=5)
    list(par)
    stage = par.profile_report().stages[1]
    assert stage.workers == 2 and stage.worker_time > 0.1 and stage.queue_occupancy is not None
    no_children_left()


def fails_on_230(x):
    if int(x) == 230:
        raise ValueError("bad value")
    return x


@pytest.mark.parametrize("mode", ["inline", "threads", "processes"])
def test_error_under_shuffle_names_the_source_row(mode):
    set_seed(3)
    workers = None if mode == "inline" else 2
    ds = sd.NumpySlicesDataset(np.arange(64) * 10, shuffle=True).map(
        fails_on_230, num_parallel_workers=workers, python_multiprocessing=mode == "processes",
        chunk_size=4)
    with pytest.raises(sd.WorkerError) as info:
        list(ds)
    err = info.value
    assert err.index == err.source_index == 23 and err.position != 23  # shuffled
    assert "source row 23" in str(err) and f"stream position {err.position}" in str(err)
    no_children_left()


def test_error_in_decode_names_the_image_file(tmp_path):
    (tmp_path / "cat").mkdir()
    for i in range(4):
        (tmp_path / "cat" / f"{i}.png").write_bytes(b"not a png" if i == 2 else _png())
    for processes in (False, True):
        ds = sd.ImageFolderDataset(str(tmp_path), shuffle=False).map(
            vision.Decode(), ["image"], num_parallel_workers=1,
            python_multiprocessing=processes)
        with pytest.raises(sd.WorkerError) as info:
            list(ds)
        assert str(tmp_path / "cat" / "2.png") in str(info.value)
        assert info.value.sample == str(tmp_path / "cat" / "2.png")
    inline = sd.ImageFolderDataset(str(tmp_path), shuffle=False).map(vision.Decode(), ["image"])
    with pytest.raises(sd.WorkerError, match="2.png"):
        list(inline)
    no_children_left()


def _png() -> bytes:
    import io

    from PIL import Image
    out = io.BytesIO()
    Image.fromarray(np.zeros((4, 4, 3), np.uint8)).save(out, "PNG")
    return out.getvalue()


def test_error_reading_records_names_shard_and_row(tmp_path):
    w = sd.FileWriter(str(tmp_path / "r.rec"), shard_num=2, row_group_size=4)
    w.add_schema({"x": {"type": "int64"}})
    w.write_raw_data([{"x": i * 10} for i in range(30)])
    w.commit()
    set_seed(1)
    ds = sd.RecordDataset(str(tmp_path / "r.rec"), shuffle=True).map(
        fails_on_230, num_parallel_workers=2, python_multiprocessing=True)
    with pytest.raises(sd.WorkerError) as info:
        list(ds)
    reader = sd.RecordReader(str(tmp_path / "r.rec"))
    row = next(i for i in range(len(reader)) if int(reader[i]["x"]) == 230)
    assert info.value.source_index == row and "r.rec" in info.value.sample
    no_children_left()


def test_worker_killed_by_a_signal_names_it():
    import signal

    def killed(x):
        if int(x) == 5:
            os.kill(os.getpid(), signal.SIGKILL)
        return x
    ds = sd.NumpySlicesDataset(np.arange(32), shuffle=False).map(
        killed, num_parallel_workers=2, python_multiprocessing=True, chunk_size=2)
    with pytest.raises(sd.WorkerError, match=r"killed by signal SIGKILL \(9\)") as info:
        list(ds)
    assert "exit code None" not in str(info.value) and info.value.source_index == 4
    no_children_left()


def test_skipped_undecodable_image_is_recorded_by_path(tmp_path):
    (tmp_path / "cat").mkdir()
    for i in range(4):
        (tmp_path / "cat" / f"{i}.png").write_bytes(b"not a png" if i == 1 else _png())
    ds = sd.ImageFolderDataset(str(tmp_path), shuffle=False, on_error="skip")
    rows = list(ds.map(vision.Decode(), ["image"], num_parallel_workers=2,
                       python_multiprocessing=True))
    assert len(rows) == 3 and list(ds.skipped) == [str(tmp_path / "cat" / "1.png")]
    no_children_left()
