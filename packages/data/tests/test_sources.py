"""Sources: in-memory arrays, user generators, MNIST, CIFAR-10, image folders, CSV."""
import numpy as np
import pytest

import sporeling.data as sd
from sporeling.data import CorruptSampleError, DataError


def test_numpy_slices_columns_and_dict():
    ds = sd.NumpySlicesDataset({"a": np.arange(3), "b": np.ones((3, 2))}, shuffle=False)
    rows = list(ds)
    assert ds.get_col_names() == ["a", "b"] and len(rows) == 3
    assert rows[2][0] == 2 and rows[0][1].shape == (2,)
    with pytest.raises(DataError, match="differ in length"):
        sd.NumpySlicesDataset((np.arange(3), np.arange(4)))


def test_generator_random_access_iterable_and_callable():
    class Source:
        def __len__(self):
            return 5

        def __getitem__(self, i):
            return np.full(2, i), i * 10

    ds = sd.GeneratorDataset(Source(), ["x", "y"], shuffle=False)
    assert [int(r[1]) for r in ds] == [0, 10, 20, 30, 40] and ds.get_dataset_size() == 5
    assert sorted(int(r[1]) for r in sd.GeneratorDataset(Source(), ["x", "y"])) == \
        [0, 10, 20, 30, 40]
    class Stream:
        def __iter__(self):
            return iter([(1,), (2,)])

    it = sd.GeneratorDataset(Stream(), ["v"])
    assert [int(r[0]) for r in it] == [1, 2] == [int(r[0]) for r in it]  # re-iterable
    gen = sd.GeneratorDataset(lambda: iter(range(4)), ["v"], num_samples=3)
    assert [int(r[0]) for r in gen] == [0, 1, 2] and gen.get_dataset_size() == 3
    with pytest.raises(DataError, match="cannot be sampled"):
        sd.GeneratorDataset(lambda: iter(range(4)), ["v"], shuffle=True)
    with pytest.raises(DataError, match="wrong number of columns"):
        list(sd.GeneratorDataset([(1, 2)], ["v"]))


def test_mnist_plain_and_gzip(mnist_dir):
    folder, images, labels = mnist_dir
    ds = sd.MnistDataset(str(folder), usage="train", shuffle=False)
    rows = list(ds)
    assert len(rows) == 12 and rows[3][0].shape == (28, 28, 1)
    assert np.array_equal(rows[3][0][..., 0], images[3]) and rows[3][1] == labels[3]
    assert rows[0][1].dtype == np.uint32
    assert sd.MnistDataset(str(folder), usage="all").get_dataset_size() == 16


def test_mnist_truncated_file_is_named(mnist_dir):
    folder = mnist_dir[0]
    path = folder / "train-images-idx3-ubyte"
    path.write_bytes(path.read_bytes()[:-100])
    with pytest.raises(DataError, match="train-images-idx3-ubyte is truncated") as info:
        sd.MnistDataset(str(folder), usage="train")
    assert str(path) in str(info.value)


def test_cifar10_records_and_truncation(tmp_path):
    rng = np.random.default_rng(0)
    records = rng.integers(0, 255, (7, 3073), dtype=np.uint8)
    records[:, 0] = np.arange(7) % 10
    (tmp_path / "data_batch_1.bin").write_bytes(records[:4].tobytes())
    (tmp_path / "test_batch.bin").write_bytes(records[4:].tobytes())
    ds = sd.Cifar10Dataset(str(tmp_path), usage="train", shuffle=False)
    image, label = next(iter(ds))
    assert image.shape == (32, 32, 3) and label == 0
    assert np.array_equal(image[..., 1], records[0, 1025:2049].reshape(32, 32))
    assert sd.Cifar10Dataset(str(tmp_path), usage="all").get_dataset_size() == 7
    (tmp_path / "test_batch.bin").write_bytes(records[4:].tobytes()[:-5])
    with pytest.raises(DataError, match="test_batch.bin is truncated"):
        sd.Cifar10Dataset(str(tmp_path), usage="test")


def test_image_folder_bytes_decode_and_labels(image_dir):
    ds = sd.ImageFolderDataset(str(image_dir), shuffle=False)
    raw, label = next(iter(ds))
    assert raw.dtype == np.uint8 and raw.ndim == 1 and label == 0
    decoded = sd.ImageFolderDataset(str(image_dir), shuffle=False, decode=True)
    assert [r[0].shape for r in decoded][0] == (12, 10, 3)
    assert sorted(int(r[1]) for r in decoded) == [0] * 5 + [1] * 5
    via_map = ds.map(sd.vision.Decode(), ["image"])
    assert np.array_equal(next(iter(via_map))[0], next(iter(decoded))[0])


def test_corrupt_image_named_or_skipped_and_counted(image_dir):
    bad = image_dir / "dog" / "9.png"
    bad.write_bytes(b"not a png at all")
    with pytest.raises(CorruptSampleError, match="9.png"):
        list(sd.ImageFolderDataset(str(image_dir), decode=True, shuffle=False))
    ds = sd.ImageFolderDataset(str(image_dir), decode=True, shuffle=False, on_error="skip")
    assert len(list(ds)) == 10 and ds.num_skipped == 1
    assert str(bad) in ds.skipped
    # the same when process workers read and decode the files themselves
    ds = sd.ImageFolderDataset(str(image_dir), decode=True, shuffle=False, on_error="skip")
    ds2 = ds.map(lambda im: im[:4], ["image"], num_parallel_workers=2,
                 python_multiprocessing=True, chunk_size=3)
    assert len(list(ds2)) == 10 and ds.num_skipped == 1


def test_csv_types_errors_and_skip(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("x,y,name\n1,2.5,a\n3,4.0,b\n5,oops,c\n7,8\n")
    with pytest.raises(CorruptSampleError, match=r"d.csv:5") as info:
        sd.CSVDataset(str(path), column_defaults=[0, 0.0, ""], shuffle=False)
    assert "3 fields" in str(info.value)
    ds = sd.CSVDataset(str(path), column_defaults=[0, 0.0, ""], shuffle=False,
                       on_error="skip")
    rows = list(ds)
    assert [(int(r[0]), float(r[1]), str(r[2])) for r in rows] == [(1, 2.5, "a"), (3, 4.0, "b")]
    assert ds.num_skipped == 2 and f"{path}:4" in ds.skipped
    assert rows[0][0].dtype == np.int32 and rows[0][1].dtype == np.float32
    good = tmp_path / "g.csv"
    good.write_text("1;x\n2;y\n")
    inferred = sd.CSVDataset(str(good), field_delim=";", column_names=["n", "s"],
                             shuffle=False)
    assert [int(r[0]) for r in inferred] == [1, 2]
