"""``CSVDataset``: rows of CSV files, typed by ``column_defaults`` or by inference."""
from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

from ..errors import CorruptSampleError, DataError
from .base import SourceDataset

__all__ = ["CSVDataset"]


def _convert(text: str, default, where: str):
    if text == "" and default is not None:
        return default
    kind = type(default) if default is not None else str
    try:
        return kind(text)
    except ValueError:
        raise CorruptSampleError(f"cannot read {text!r} as {kind.__name__}", op="CSVDataset",
                                 where=where) from None


def _infer(values: list[str]):
    for kind in (int, float):
        try:
            for v in values:
                kind(v)
            return kind(0)
        except ValueError:
            continue
    return ""


class CSVDataset(SourceDataset):
    """Rows of ``dataset_files`` (a path or a list), one column per field. Without
    ``column_names`` the first line of each file is its header. ``column_defaults`` (one
    value per column) fixes each column's type (int -> int32, float -> float32, str) and
    fills empty fields; without it, types are inferred. A row with the wrong number of
    fields or a value of the wrong type raises an error naming ``file:line``; with
    ``on_error="skip"`` it is dropped and counted in ``skipped``."""

    def __init__(self, dataset_files, field_delim=",", column_defaults=None, column_names=None,
                 num_samples=None, shuffle=None, num_shards=None, shard_id=None,
                 on_error="raise"):
        files = [Path(dataset_files)] if isinstance(dataset_files, (str, Path)) \
            else [Path(f) for f in dataset_files]
        missing = [str(f) for f in files if not f.is_file()]
        if not files or missing:
            raise DataError("missing CSV file(s)", op="CSVDataset",
                            expected="existing files", got=missing or "no files")
        names = list(column_names) if column_names is not None else None
        raw: list[tuple[str, list[str]]] = []
        for path in files:
            with open(path, newline="", encoding="utf-8") as f:
                for line, fields in enumerate(csv.reader(f, delimiter=field_delim), 1):
                    if line == 1 and column_names is None:
                        if names is None:
                            names = fields
                        elif fields != names:
                            raise DataError("CSV headers differ", op="CSVDataset",
                                            expected=names, got=fields, where=f"{path}:1")
                        continue
                    if fields:
                        raw.append((f"{path}:{line}", fields))
        if not names:
            raise DataError("no columns", op="CSVDataset", expected="a header or column_names")
        super().__init__(names, num_samples=num_samples, shuffle=shuffle,
                         num_shards=num_shards, shard_id=shard_id, on_error=on_error)
        rows = []
        for where, fields in raw:
            if len(fields) != len(names):
                self._bad(CorruptSampleError("malformed row", op="CSVDataset", where=where,
                                             expected=f"{len(names)} fields",
                                             got=len(fields)))
                continue
            rows.append((where, fields))
        if column_defaults is None:
            column_defaults = [_infer([r[1][c] for r in rows]) for c in range(len(names))]
        elif len(column_defaults) != len(names):
            raise DataError("column_defaults does not match the columns", op="CSVDataset",
                            expected=f"{len(names)} values", got=len(column_defaults))
        values = []
        for where, fields in rows:
            try:
                values.append([_convert(t, d, where) for t, d in zip(fields, column_defaults)])
            except CorruptSampleError as exc:
                self._bad(exc)
        kinds = {int: np.int32, float: np.float32, str: np.str_}
        self._columns = [np.asarray([v[c] for v in values],
                                    kinds.get(type(column_defaults[c]), np.str_))
                         for c in range(len(names))]
        self._n = len(values)

    def _bad(self, exc: CorruptSampleError) -> None:
        if self.on_error != "skip":
            raise exc
        self.skipped[exc.where] = exc.detail

    def _len(self):
        return self._n

    def _read(self, index):
        return tuple(c[index] for c in self._columns)
