"""``RecordReader`` (random access by index, a subset of columns, field search) and
``RecordDataset`` (the record format as a pipeline source, MindSpore's ``MindDataset``)."""
from __future__ import annotations

import bisect
import os
from pathlib import Path

import numpy as np

from ..errors import DataError, RecordError
from ..sources.base import SourceDataset
from .footer import DECODE_ERRORS, open_parquet, open_shard
from .integrity import CHECK_KEY, column_crcs, unseal

__all__ = ["RecordReader", "RecordDataset"]


class RecordReader:
    """Open the record set containing ``file_name`` (any one shard, the set's name given to
    the writer, or a list of shards).

    ``reader[i]`` is row ``i`` (shard by shard) as a dict of the chosen ``columns``; rows
    are read one Parquet row group at a time, and the last group of each shard is cached.
    """

    def __init__(self, file_name, columns=None):
        first = Path(file_name[0] if isinstance(file_name, (list, tuple)) else file_name)
        if not first.is_file() and first.with_name(first.name + "0").is_file():
            first = first.with_name(first.name + "0")  # the set's name, not a shard's
        if not first.is_file():
            raise DataError("no such record file", op="RecordReader", expected="a shard path",
                            got=str(first))
        info = open_shard(first).info
        self.schema, self.index_fields = info["schema"], info["index_fields"]
        self.paths = [first.with_name(n) for n in info["shards"]]
        self.index_path = first.with_name(info["index_file"])
        self._checked = "checks" in info
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
        # every shard's footer, verified; the index: (shard, row group) -> first row id
        shards = [open_shard(p) for p in self.paths]
        for s, shard in enumerate(shards):
            if {**shard.info, "shard": s} != {**info, "shard": s} or shard.info["shard"] != s:
                raise RecordError(f"shard {s} does not belong to the set of {first.name}",
                                  path=shard.path, expected=f"shard {s} of {info['shards']}",
                                  got=f"shard {shard.info['shard']} of {shard.info['shards']}")
        self._checks = [shard.groups for shard in shards]
        self._starts, self._groups, total = [], [], 0
        for s, shard in enumerate(shards):
            md = shard.file.metadata
            for g in range(md.num_row_groups):
                self._starts.append(total)
                self._groups.append((s, g))
                total += md.row_group(g).num_rows
        self._shard_rows = [shard.file.metadata.num_rows for shard in shards]
        self._shard_starts = [0] * len(self.paths)
        for start, (s, g) in zip(self._starts, self._groups):
            if g == 0:
                self._shard_starts[s] = start
        self._n = total
        self._files = {s: shard.file for s, shard in enumerate(shards)}
        self._pid, self._cache = os.getpid(), {}

    def __len__(self) -> int:
        return self._n

    def _file(self, shard: int):
        if self._pid != os.getpid():  # reopened after a fork: file handles are per process
            self._files, self._cache, self._pid = {}, {}, os.getpid()
        f = self._files.get(shard)
        if f is None:
            f = self._files[shard] = open_parquet(self.paths[shard])
        return f

    def _group(self, k: int):
        s, g = self._groups[k]
        cached = self._cache.get(s)
        if cached is None or cached[0] != g:
            cached = self._cache[s] = (g, self._decode(k))
        return cached[1]

    def _decode(self, k: int) -> list:
        """Row group ``k``'s columns, compared with the sealed row count and checksums."""
        from .arrow import from_table
        s, g = self._groups[k]
        path = self.paths[s]
        end = self._starts[k + 1] if k + 1 < len(self._starts) else self._n
        try:
            table = self._file(s).read_row_group(g, columns=self.columns)
            if table.num_rows != end - self._starts[k]:
                raise RecordError("a row group decodes to the wrong number of rows", path=path,
                                  row_group=g, expected=end - self._starts[k],
                                  got=table.num_rows)
            sealed = self._checks[s][g] if self._checked else None
            if sealed is not None:
                crcs = column_crcs(table, self.columns)
                bad = [c for c in self.columns if crcs[c] != sealed["crc"].get(c)]
                if bad:
                    raise RecordError(f"column(s) {bad} do not match their checksums",
                                      path=path, row_group=g,
                                      hint="the file is damaged; rewrite it from its source")
            return from_table(table, self.schema, self.columns)
        except RecordError:
            raise
        except DECODE_ERRORS as exc:
            raise RecordError(f"cannot decode: {type(exc).__name__}: {exc}", path=path,
                              row_group=g, hint="the file is damaged; rewrite it from its "
                              "source") from exc

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

    def describe(self, index: int) -> str:
        """``"<shard path>, row group g, row r"`` for row ``index``."""
        k = bisect.bisect_right(self._starts, index) - 1
        s, g = self._groups[k]
        return f"{self.paths[s]}, row group {g}, row {index - self._starts[k]}"

    def search(self, field: str, value) -> np.ndarray:
        """Row ids whose ``field`` equals ``value`` (an indexed field, see ``add_index``)."""
        import pyarrow.compute as pc
        if field not in self.index_fields:
            raise DataError(f"{field!r} is not indexed", op="RecordReader.search",
                            expected=f"one of {self.index_fields}", got=field)
        table = self._index_table()
        try:
            hits = table.filter(pc.and_(pc.equal(table["field"], field),
                                        pc.equal(table["value"], str(value))))
            shards = hits["shard"].to_numpy()
            positions = hits["position"].to_numpy()
            rows = np.asarray(self._shard_rows)[shards] if len(shards) else positions
            if (shards < 0).any() or (positions < 0).any() or (positions >= rows).any():
                raise IndexError("a shard or row position out of range")
            return np.sort(np.asarray(self._shard_starts)[shards] + positions)
        except DECODE_ERRORS as exc:
            raise RecordError(f"the index does not fit the shards: {exc}",
                              path=self.index_path, op="RecordReader.search") from exc

    def _index_table(self):
        """The index file's table, compared with its seal (files written with checks)."""
        path = self.index_path
        if not path.is_file():
            raise RecordError("the index file is missing", path=path, op="RecordReader.search")
        f = open_parquet(path)
        try:
            table = f.read()
            if not self._checked:
                return table
            kv = f.metadata.metadata or {}
            if CHECK_KEY not in kv:
                raise RecordError(f"the index's check ({CHECK_KEY.decode()}) is missing",
                                  path=path, op="RecordReader.search")
            sealed = unseal(kv[CHECK_KEY], path, "index check")
            if table.num_rows != sealed["rows"] or \
                    column_crcs(table, ["field", "value", "shard", "position"]) != sealed["crc"]:
                raise RecordError("the index does not match its checksums", path=path,
                                  op="RecordReader.search",
                                  hint="the file is damaged; rewrite it from its source")
            return table
        except RecordError:
            raise
        except DECODE_ERRORS as exc:
            raise RecordError(f"cannot decode the index: {type(exc).__name__}: {exc}",
                              path=path, op="RecordReader.search") from exc


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

    def describe(self, index: int) -> str:
        return self.reader.describe(index)
