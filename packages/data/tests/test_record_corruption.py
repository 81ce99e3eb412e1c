"""Corrupt record files: every damaged byte is either reported (a ``RecordError`` naming the
file, and the row group where one is concerned) or harmless (the rows read back exactly).
Never wrong rows reported as fine, never a raw pyarrow / JSON / KeyError.

``python tests/test_record_corruption.py [trials]`` prints the figures.
"""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

import sporeling.data as sd
from sporeling.data import DataError

SCHEMA = {"image": {"type": "uint8", "shape": [3, 4]}, "tokens": {"type": "int32", "shape": [-1]},
          "blob": {"type": "bytes"}, "name": {"type": "string"}, "label": {"type": "int64"},
          "score": {"type": "float32"}, "flag": {"type": "bool"}}


def make_rows(n: int) -> list[dict]:
    rng = np.random.default_rng(5)
    return [{"image": rng.integers(0, 255, (3, 4), dtype=np.uint8),
             "tokens": rng.integers(-9, 9, i % 5).astype(np.int32),
             "blob": rng.bytes(i % 7), "name": f"name-{i % 6}", "label": i,
             "score": np.float32(rng.standard_normal()), "flag": bool(i % 3)}
            for i in range(n)]


def write_set(folder: Path, rows: list[dict]) -> Path:
    path = folder / "set.rec"
    w = sd.FileWriter(str(path), shard_num=2, row_group_size=16)
    w.add_schema(SCHEMA)
    w.add_index(["label", "name"])
    w.write_raw_data(rows)
    w.commit()
    return path


def read_everything(path: Path) -> tuple:
    """All rows (a shard opened by name, as a user would) and two searches."""
    reader = sd.RecordReader(str(path))
    rows = [reader.read(i) for i in range(len(reader))]
    return rows, reader.search("name", "name-2").tolist(), reader.search("label", 7).tolist()


def same(a: tuple, b: tuple) -> bool:
    rows_a, *hits_a = a
    rows_b, *hits_b = b
    if hits_a != hits_b or len(rows_a) != len(rows_b):
        return False
    for ra, rb in zip(rows_a, rows_b):
        for x, y in zip(ra, rb):
            x, y = np.asarray(x), np.asarray(y)
            if x.dtype != y.dtype or x.shape != y.shape or not np.array_equal(x, y):
                return False
    return True


def damage(data: bytearray, rng, footer: bool) -> None:
    """16 random bytes written at a random place (the issue's experiment) or one byte flipped;
    ``footer`` aims at the file's last 600 bytes (Parquet footer, schema, our metadata)."""
    lo = max(0, len(data) - 600) if footer else 0
    if rng.random() < 0.5:
        at = int(rng.integers(lo, len(data) - 16))
        data[at:at + 16] = rng.bytes(16)
    else:
        at = int(rng.integers(lo, len(data)))
        data[at] ^= int(rng.integers(1, 256))


def fuzz(folder: Path, trials: int, seed: int = 0) -> dict:
    """Figures: trials, errors (the package's own; ``unnamed`` lists those not naming the
    damaged file), correct reads, silent wrong rows, raw errors (anything else, by type)."""
    clean = folder / "clean"
    clean.mkdir()
    path = write_set(clean, make_rows(150))
    expected = read_everything(path)
    files = sorted(p.name for p in clean.iterdir())
    rng = np.random.default_rng(seed)
    counts = {"trials": trials, "errors": 0, "correct": 0, "silent_wrong": 0, "raw": {},
              "unnamed": []}
    for t in range(trials):
        work = folder / f"t{t}"
        shutil.copytree(clean, work)
        victim = work / files[int(rng.integers(len(files)))]
        data = bytearray(victim.read_bytes())
        damage(data, rng, footer=rng.random() < 0.3)
        victim.write_bytes(bytes(data))
        try:
            got = read_everything(work / path.name)
        except DataError as exc:
            counts["errors"] += 1
            if victim.name not in str(exc):
                counts["unnamed"].append(str(exc)[:200])
        except Exception as exc:  # noqa: BLE001 -- counted: a raw error is a failure too
            name = type(exc).__name__
            counts["raw"][name] = counts["raw"].get(name, 0) + 1
        else:
            counts["correct" if same(got, expected) else "silent_wrong"] += 1
        shutil.rmtree(work)
    return counts


def test_200_byte_flips_never_give_silent_wrong_rows(tmp_path):
    counts = fuzz(tmp_path, 200)
    assert counts["silent_wrong"] == 0 and counts["raw"] == {} and counts["unnamed"] == [], \
        counts
    assert counts["errors"] + counts["correct"] == 200
    assert counts["errors"] > 100  # most damage is detected, not merely survived


if __name__ == "__main__":
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        print(fuzz(Path(d), int(sys.argv[1]) if len(sys.argv) > 1 else 200))


def flip_in_page(path: Path, row_group: int, column: int = 0) -> None:
    import pyarrow.parquet as pq
    chunk = pq.ParquetFile(str(path)).metadata.row_group(row_group).column(column)
    data = bytearray(path.read_bytes())
    start = chunk.dictionary_page_offset or chunk.data_page_offset
    data[start + chunk.total_compressed_size - 3] ^= 0x5A  # the last page's data
    path.write_bytes(bytes(data))


def test_damaged_page_names_file_and_row_group(tmp_path):
    import pyarrow.parquet as pq
    path = write_set(tmp_path, make_rows(150))
    shard = tmp_path / "set.rec1"
    flip_in_page(shard, 2)
    with pytest.raises(OSError, match="CRC"):  # plain Arrow tools see it too
        pq.ParquetFile(str(shard), page_checksum_verification=True).read_row_group(2)
    reader = sd.RecordReader(str(path))
    rows_before = [reader.read(i) for i in range(16 * 3)]  # shard 0 and shard 1's groups 0-1
    with pytest.raises(sd.RecordError) as info:
        [reader.read(i) for i in range(len(reader))]
    err = info.value
    assert err.path == str(shard) and err.row_group == 2
    assert f"{shard}, row group 2" in str(err) and isinstance(err, DataError)
    assert len(rows_before) == 48


def test_damaged_metadata_and_index_are_named(tmp_path):
    path = write_set(tmp_path, make_rows(40))
    meta = tmp_path / "set.rec0"
    data = meta.read_bytes()
    at = data.rindex(b'"index_fields"')
    meta.write_bytes(data[:at] + b'"index_fieldz"' + data[at + 14:])
    with pytest.raises(sd.RecordError, match="unknown record metadata") as info:
        sd.RecordReader(str(path))
    assert info.value.path == str(meta) and info.value.row_group is None
    clean = tmp_path / "clean"
    clean.mkdir()
    path = write_set(clean, make_rows(40))
    index = clean / "set.rec.index.parquet"
    flip_in_page(index, 0, column=3)
    reader = sd.RecordReader(str(path))
    assert int(reader[5]["label"]) == 5  # the rows are fine; only the index is damaged
    with pytest.raises(sd.RecordError) as info:
        reader.search("label", 7)
    assert str(index) in str(info.value)


def test_files_written_before_checks_still_read(tmp_path):
    """A record file from before the seals (no ``checks``, no check key) reads as before."""
    import json

    import pyarrow.parquet as pq
    from sporeling.data.record.writer import META_KEY
    path = write_set(tmp_path, make_rows(40))
    for name in ("set.rec0", "set.rec1"):
        f = tmp_path / name
        table = pq.read_table(str(f))
        info = json.loads(table.schema.metadata[META_KEY])
        del info["checks"]
        pq.write_table(table.replace_schema_metadata({META_KEY: json.dumps(info)}), str(f),
                       row_group_size=16)
    rows = read_everything(path)
    assert sorted(int(r[4]) for r in rows[0]) == list(range(40)) and rows[2] == [7]
