"""``FileWriter``: write a dataset as sharded Parquet files with a schema and an index.

Shards are ordinary Parquet files (readable by any Arrow tool). Each shard's footer carries
the schema, the list of sibling shards and the indexed fields (key ``sporeling.record``), so
opening any one shard finds the whole set. Rows go to the shards in row groups, round-robin;
``add_index(fields)`` also writes ``<name>.index.parquet``: (field, value, row id) triples
for :meth:`RecordReader.search`. Pages carry checksums and each footer a sealed check of the
metadata and of every row group's columns (see :mod:`.integrity`), so a damaged file raises
:class:`~sporeling.data.RecordError` instead of reading back wrong rows.

    >>> import numpy as np, tempfile, os
    >>> from sporeling.data import FileWriter, RecordDataset
    >>> path = os.path.join(tempfile.mkdtemp(), "toy.parquet")
    >>> w = FileWriter(path, shard_num=2)
    >>> w.add_schema({"x": {"type": "float32", "shape": [2]}, "label": {"type": "int32"}})
    >>> w.write_raw_data([{"x": np.ones(2) * i, "label": i} for i in range(5)])
    >>> w.commit()
    >>> ds = RecordDataset(path, columns_list=["label"], shuffle=False)
    >>> sorted(int(r[0]) for r in ds)
    [0, 1, 2, 3, 4]
"""
from __future__ import annotations

import json
import zlib
from pathlib import Path

import numpy as np

from ..errors import DataError
from .integrity import CHECK_KEY, CHECKS, column_crcs, seal
from .schema import check_schema, to_numpy_value

__all__ = ["FileWriter", "shard_paths", "META_KEY"]

META_KEY = b"sporeling.record"


def shard_paths(file_name, shard_num: int) -> list[Path]:
    """MindRecord's naming: ``name`` for one shard, ``name0 .. name{n-1}`` for several."""
    path = Path(file_name)
    if shard_num == 1:
        return [path]
    return [path.with_name(f"{path.name}{i}") for i in range(shard_num)]


class FileWriter:
    """Write rows (dicts) to ``shard_num`` Parquet shards; ``commit()`` finishes them."""

    def __init__(self, file_name, shard_num: int = 1, overwrite: bool = False,
                 row_group_size: int = 256):
        if isinstance(shard_num, bool) or not isinstance(shard_num, int) or shard_num < 1:
            raise DataError("bad shard_num", op="FileWriter", expected="an int >= 1",
                            got=repr(shard_num))
        self.paths = shard_paths(file_name, shard_num)
        self.index_path = Path(str(self.paths[0].with_name(Path(file_name).name)) +
                               ".index.parquet")
        existing = [str(p) for p in self.paths + [self.index_path] if p.exists()]
        if existing and not overwrite:
            raise DataError("record files exist", op="FileWriter", expected="new paths",
                            got=existing, hint="pass overwrite=True to replace them")
        for p in existing:
            Path(p).unlink()
        self.row_group_size = row_group_size
        self.schema, self.index_fields = None, []
        self._buffer, self._writers, self._next_shard = [], None, 0
        self._index_rows: list[tuple[str, str, int, int]] = []
        self._count = 0

    def add_schema(self, schema: dict, desc: str | None = None) -> None:
        """Declare the columns: ``{name: {"type": "float32", "shape": [28, 28]}}``."""
        if self._writers is not None:
            raise DataError("schema added after writing", op="FileWriter",
                            expected="add_schema before write_raw_data")
        self.schema, self.desc = check_schema(schema), desc

    def add_index(self, index_fields) -> None:
        """Scalar or string columns to index for :meth:`RecordReader.search`."""
        self._need_schema()
        for field in index_fields:
            spec = self.schema.get(field)
            if spec is None or spec["shape"] is not None or spec["type"] == "bytes":
                raise DataError(f"cannot index {field!r}", op="FileWriter",
                                expected="a scalar numeric or string column of the schema",
                                got=spec)
        self.index_fields = list(index_fields)

    def _need_schema(self):
        if self.schema is None:
            raise DataError("no schema", op="FileWriter", expected="add_schema(...) first")

    def write_raw_data(self, raw_data) -> None:
        """Append rows: a list of ``{column: value}`` dicts matching the schema."""
        self._need_schema()
        if self._writers is None:
            self._open()
        for row in raw_data:
            where = f"row {self._count}"
            if set(row) != set(self.schema):
                raise DataError("a row's columns do not match the schema", op="FileWriter",
                                expected=sorted(self.schema), got=sorted(row), where=where)
            self._buffer.append({k: to_numpy_value(k, s, row[k], where)
                                 for k, s in self.schema.items()})
            if self.index_fields:
                # full row groups go round-robin, so a row's shard and place are known now
                group, k = divmod(self._count, self.row_group_size)
                shard, place = group % len(self.paths), \
                    (group // len(self.paths)) * self.row_group_size + k
                for field in self.index_fields:
                    self._index_rows.append((field, str(self._buffer[-1][field]), shard, place))
            self._count += 1
            if len(self._buffer) == self.row_group_size:
                self._flush()

    def _open(self):
        import pyarrow.parquet as pq
        from .arrow import arrow_schema
        meta = {"schema": self.schema, "shards": [p.name for p in self.paths],
                "index_fields": self.index_fields, "desc": self.desc,
                "index_file": self.index_path.name, "checks": CHECKS}
        self._arrow_schema = arrow_schema(self.schema)
        self._writers, self._meta, self._groups = [], [], [[] for _ in self.paths]
        for i, path in enumerate(self.paths):
            self._meta.append(json.dumps(dict(meta, shard=i)).encode())
            schema = self._arrow_schema.with_metadata({META_KEY: self._meta[-1]})
            self._writers.append(pq.ParquetWriter(str(path), schema,
                                                  write_page_checksum=True))

    def _flush(self):
        from .arrow import to_table
        if not self._buffer:
            return
        shard = self._next_shard
        self._next_shard = (shard + 1) % len(self.paths)
        table = to_table(self._buffer, self.schema, self._arrow_schema)
        self._writers[shard].write_table(table, row_group_size=len(self._buffer))
        self._groups[shard].append({"rows": table.num_rows,
                                    "crc": column_crcs(table, list(self.schema))})
        self._buffer = []

    def commit(self) -> None:
        """Flush, seal and close every shard and write the index file."""
        self._need_schema()
        if self._writers is None:
            self._open()
        self._flush()
        for w, meta, groups in zip(self._writers, self._meta, self._groups):
            w.add_key_value_metadata({CHECK_KEY: seal(
                {"record": zlib.crc32(meta), "groups": groups})})
            w.close()
        import pyarrow as pa
        import pyarrow.parquet as pq
        cols = list(zip(*self._index_rows)) if self._index_rows else [(), (), (), ()]
        table = pa.table({"field": pa.array(cols[0], pa.string()),
                          "value": pa.array(cols[1], pa.string()),
                          "shard": pa.array(np.asarray(cols[2], np.int32)),
                          "position": pa.array(np.asarray(cols[3], np.int64))})
        with pq.ParquetWriter(str(self.index_path), table.schema,
                              write_page_checksum=True) as w:
            w.write_table(table)
            w.add_key_value_metadata({CHECK_KEY: seal(
                {"rows": table.num_rows, "crc": column_crcs(table, table.column_names)})})
