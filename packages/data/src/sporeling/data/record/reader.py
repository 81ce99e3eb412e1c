"""``RecordReader`` (random access by index, a subset of columns, field search) and
``RecordDataset`` (the record format as a pipeline source, MindSpore's ``MindDataset``)."""
from __future__ import annotations

import bisect
import json
import os
from pathlib import Path

import numpy as np

from ..errors import DataError
from ..sources.base import SourceDataset
from .writer import META_KEY

__all__ = ["RecordReader", "RecordDataset"]


class RecordReader:
    """Open the record set containing ``file_name`` (any one shard, the set's name given to
    the writer, or a list of shards).

    ``reader[i]`` is row ``i`` (shard by shard) as a dict of the chosen ``columns``; rows
    are read one Parquet row group at a time, and the last group of each shard is cached.
    """

    def __init__(self, file_name, columns=None):
        import pyarrow.parquet as pq
        first = Path(file_name[0] if isinstance(file_name, (list, tuple)) else file_name)
        if not first.is_file() and first.with_name(first.name + "0").is_file():
            first = first.with_name(first.name + "0")  # the set's name, not a shard's
        if not first.is_file():
            raise DataError("no such record file", op="RecordReader", expected="a shard path",
                            got=str(first))
        meta = pq.read_schema(str(first)).metadata or {}
        if META_KEY not in meta:
            raise DataError(f"{first} is not a Sporeling record file", op="RecordReader",
                            expected=f"Parquet with {META_KEY.decode()} metadata",
                            got="a plain Parquet file" if meta is not None else "no metadata")
        info = json.loads(meta[META_KEY])
        self.schema, self.index_fields = info["schema"], info["index_fields"]
        self.paths = [first.with_name(n) for n in info["shards"]]
        self.index_path = first.with_name(info["index_file"])
        missing = [str(p) for p in self.paths if not p.is_file()]
        if missing:
            raise DataError("record shards are missing", op="RecordReader",
                            expected=[str(p) for p in self.paths], got=f"missing {missing}")
        names = list(self.schema)
        self.columns = names if columns is None else list(columns)
        unknown = [c for c in self.columns if c not in names]
        if unknown:
            raise DataError(f"unknown column(s) {unknown}", op="RecordReader",
                            expected=f"names among {names}", got=self.columns)
        # the index: (shard, row group) -> first row id, from the Parquet footers
        self._starts, self._groups, total = [], [], 0
        for s, path in enumerate(self.paths):
            md = pq.ParquetFile(str(path)).metadata
            for g in range(md.num_row_groups):
                self._starts.append(total)
                self._groups.append((s, g))
                total += md.row_group(g).num_rows
        self._shard_starts = [0] * len(self.paths)
        for start, (s, g) in zip(self._starts, self._groups):
            if g == 0:
                self._shard_starts[s] = start
        self._n = total
        self._files, self._pid, self._cache = {}, None, {}

    def __len__(self) -> int:
        return self._n

    def _file(self, shard: int):
        import pyarrow.parquet as pq
        if self._pid != os.getpid():  # reopened after a fork: file handles are per process
            self._files, self._cache, self._pid = {}, {}, os.getpid()
        f = self._files.get(shard)
        if f is None:
            f = self._files[shard] = pq.ParquetFile(str(self.paths[shard]))
        return f

    def _group(self, k: int):
        from .arrow import from_table
        s, g = self._groups[k]
        cached = self._cache.get(s)
        if cached is None or cached[0] != g:
            table = self._file(s).read_row_group(g, columns=self.columns)
            cached = self._cache[s] = (g, from_table(table, self.schema, self.columns))
        return cached[1]

    def read(self, index: int) -> tuple:
        """Row ``index`` as a tuple in ``columns`` order."""
        if not 0 <= index < self._n:
            raise DataError("row index out of range", op="RecordReader",
                            expected=f"0 <= index < {self._n}", got=index)
        k = bisect.bisect_right(self._starts, index) - 1
        at = index - self._starts[k]
        return tuple(col[at] for col in self._group(k))

    def __getitem__(self, index: int) -> dict:
        return dict(zip(self.columns, self.read(index)))

    def search(self, field: str, value) -> np.ndarray:
        """Row ids whose ``field`` equals ``value`` (an indexed field, see ``add_index``)."""
        import pyarrow.compute as pc
        import pyarrow.parquet as pq
        if field not in self.index_fields:
            raise DataError(f"{field!r} is not indexed", op="RecordReader.search",
                            expected=f"one of {self.index_fields}", got=field)
        table = pq.read_table(str(self.index_path))
        hits = table.filter(pc.and_(pc.equal(table["field"], field),
                                    pc.equal(table["value"], str(value))))
        shards = hits["shard"].to_numpy()
        return np.sort(np.asarray(self._shard_starts)[shards] + hits["position"].to_numpy())


class RecordDataset(SourceDataset):
    """Rows of a record set written by :class:`FileWriter`; ``columns_list`` reads only
    those columns (the others are never loaded from disk)."""

    fork_safe = False  # Arrow keeps threads; process workers get the rows from us instead

    def __init__(self, dataset_files, columns_list=None, num_samples=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None):
        self.reader = RecordReader(dataset_files, columns_list)
        super().__init__(self.reader.columns, num_samples=num_samples, shuffle=shuffle,
                         sampler=sampler, num_shards=num_shards, shard_id=shard_id)

    def _len(self):
        return len(self.reader)

    def _read(self, index):
        return self.reader.read(index)
