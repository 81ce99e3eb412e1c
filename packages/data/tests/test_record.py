"""The record format: sharded Parquet with a schema and an index."""
import numpy as np
import pyarrow.parquet as pq
import pytest

import sporeling.data as sd
from sporeling.data import DataError


def write(path, n=10, shards=3, rows_per_group=2):
    w = sd.FileWriter(str(path), shard_num=shards, row_group_size=rows_per_group)
    w.add_schema({"image": {"type": "uint8", "shape": [2, 3]},
                  "tokens": {"type": "int32", "shape": [-1]},
                  "blob": {"type": "bytes"}, "name": {"type": "string"},
                  "label": {"type": "int64"}})
    w.add_index(["label", "name"])
    rows = [{"image": np.full((2, 3), i, np.uint8), "tokens": np.arange(i % 4),
             "blob": bytes([i, i + 1]), "name": f"n{i % 3}", "label": i} for i in range(n)]
    w.write_raw_data(rows[:4])
    w.write_raw_data(rows[4:])
    w.commit()


def test_shards_are_plain_parquet_with_all_rows(tmp_path):
    path = tmp_path / "set.parquet"
    write(path)
    shards = [tmp_path / f"set.parquet{i}" for i in range(3)]
    assert all(s.is_file() for s in shards)
    assert sum(pq.ParquetFile(str(s)).metadata.num_rows for s in shards) == 10
    ds = sd.RecordDataset(str(path), shuffle=False)
    rows = list(ds)
    assert sorted(int(r[4]) for r in rows) == list(range(10))
    for image, tokens, blob, name, label in rows:
        i = int(label)
        assert np.array_equal(image, np.full((2, 3), i)) and image.dtype == np.uint8
        assert tokens.tolist() == list(range(i % 4)) and blob.tobytes() == bytes([i, i + 1])
        assert str(name) == f"n{i % 3}"


def test_random_access_subset_of_columns_and_search(tmp_path):
    path = tmp_path / "set.parquet"
    write(path, n=25)
    reader = sd.RecordReader(str(tmp_path / "set.parquet1"), columns=["label"])
    assert len(reader) == 25 and reader.columns == ["label"]
    labels = [int(reader[i]["label"]) for i in (24, 0, 13, 7)]
    by_id = {int(reader[i]["label"]): i for i in range(25)}
    assert labels == [int(reader[by_id[v]]["label"]) for v in labels]
    hits = reader.search("name", "n1")
    assert sorted(int(reader[i]["label"]) for i in hits) == [i for i in range(25) if i % 3 == 1]
    assert [int(reader[i]["label"]) for i in reader.search("label", 17)] == [17]
    with pytest.raises(DataError, match="not indexed"):
        reader.search("blob", b"x")


def test_record_dataset_shards_and_columns(tmp_path):
    path = tmp_path / "set.parquet"
    write(path, n=12)
    parts = [sd.RecordDataset(str(path), columns_list=["label"], num_shards=2, shard_id=i)
             for i in range(2)]
    seen = [int(r[0]) for p in parts for r in p]
    assert sorted(seen) == list(range(12)) and parts[0].get_col_names() == ["label"]


def test_writer_checks(tmp_path):
    path = tmp_path / "one.parquet"
    write(path, shards=1)
    with pytest.raises(DataError, match="exist"):
        sd.FileWriter(str(path))
    w = sd.FileWriter(str(path), overwrite=True)
    w.add_schema({"x": {"type": "float32", "shape": [2]}})
    with pytest.raises(DataError, match="wrong shape"):
        w.write_raw_data([{"x": np.zeros(3)}])
    with pytest.raises(DataError, match="bad type"):
        sd.FileWriter(str(tmp_path / "z"), overwrite=True).add_schema({"x": {"type": "obj"}})
