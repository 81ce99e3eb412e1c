"""``CSVDataset``: rows of CSV files, typed by ``column_defaults`` or by inference."""
from __future__ import annotations

import codecs
import csv
import io
from pathlib import Path

import numpy as np

from ..errors import CorruptSampleError, DataError
from .base import SourceDataset, check_on_error

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


def _text(path: Path, encoding: str) -> str:
    """The file decoded; a DataError at the first byte that is not ``encoding``."""
    data = path.read_bytes()
    try:
        # a UTF-8 byte order mark (Excel writes one) is not part of the first column's name
        return data.decode("utf-8-sig" if codecs.lookup(encoding).name == "utf-8" else encoding)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise DataError(f"the file is not valid {encoding} (byte {data[exc.start]:#04x})",
                        op="CSVDataset", where=f"{path}:{line}",
                        hint=f"pass encoding= with the file's encoding, e.g. "
                        f"CSVDataset(..., encoding='latin-1')") from None


def _records(path: Path, delim: str, encoding: str, bad):
    """``(where, fields)`` per record; ``where`` is ``file:line`` of the record's first line.
    A record that breaks the quoting rules goes to ``bad`` (a CorruptSampleError); a quote
    that never closes is a DataError: everything after it would be one field."""
    reader = csv.reader(io.StringIO(_text(path, encoding), newline=""), delimiter=delim,
                        strict=True)
    while True:
        start = reader.line_num + 1
        try:
            fields = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            if "unexpected end of data" in str(exc):
                raise DataError(f"unterminated quoted field: the quote opened on line {start} "
                                f"is never closed (it runs to the end, line "
                                f"{reader.line_num})", op="CSVDataset",
                                where=f"{path}:{start}",
                                hint="close the quote or escape it by doubling it") from None
            bad(CorruptSampleError(f"malformed row: {exc}", op="CSVDataset",
                                   where=f"{path}:{start}"))
            continue
        yield f"{path}:{start}", fields


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
    fields, broken quoting or a value of the wrong type raises an error naming
    ``file:line``; with ``on_error="skip"`` it is dropped and counted in ``skipped``. A quote
    that is never closed is always an error (it would swallow the rest of the file), and so
    is a file that is not in ``encoding`` (default UTF-8, with or without a byte order
    mark)."""

    def __init__(self, dataset_files, field_delim=",", column_defaults=None, column_names=None,
                 num_samples=None, shuffle=None, num_shards=None, shard_id=None,
                 on_error="raise", encoding="utf-8"):
        try:
            codecs.lookup(encoding)
        except (LookupError, TypeError):
            raise DataError("unknown encoding", op="CSVDataset",
                            expected="a Python codec name such as 'utf-8' or 'latin-1'",
                            got=repr(encoding)) from None
        files = [Path(dataset_files)] if isinstance(dataset_files, (str, Path)) \
            else [Path(f) for f in dataset_files]
        missing = [str(f) for f in files if not f.is_file()]
        if not files or missing:
            raise DataError("missing CSV file(s)", op="CSVDataset",
                            expected="existing files", got=missing or "no files")
        names = list(column_names) if column_names is not None else None
        raw: list[tuple[str, list[str]]] = []
        self.on_error, self.skipped = check_on_error(on_error, "CSVDataset"), {}
        for path in files:
            for n, (where, fields) in enumerate(
                    _records(path, field_delim, encoding, self._bad), 1):
                if n == 1 and column_names is None:
                    if names is None:
                        names = fields
                    elif fields != names:
                        raise DataError("CSV headers differ", op="CSVDataset",
                                        expected=names, got=fields, where=where)
                    continue
                if fields:
                    raw.append((where, fields))
        if not names:
            raise DataError("no columns", op="CSVDataset", expected="a header or column_names")
        skipped = self.skipped
        super().__init__(names, num_samples=num_samples, shuffle=shuffle,
                         num_shards=num_shards, shard_id=shard_id, on_error=on_error)
        self.skipped = skipped
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
        values, self._where = [], []
        for where, fields in rows:
            try:
                values.append([_convert(t, d, where) for t, d in zip(fields, column_defaults)])
                self._where.append(where)
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

    def describe(self, index: int) -> str:
        return self._where[index]

    def _read(self, index):
        return tuple(c[index] for c in self._columns)
