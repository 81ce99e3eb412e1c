"""Sources that are not standard data sets: ``PaddedDataset``, ``RandomDataset`` (with
``Schema``) and ``TFRecordDataset`` (TFRecord files of ``tf.train.Example``)."""
from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np

from sporeling.data import DataError

from ..common.dtype import to_numpy
from .file_source import FileDataset, check_file

__all__ = ["PaddedDataset", "Schema", "RandomDataset", "TFRecordDataset", "crc32c",
           "parse_example"]


class PaddedDataset(FileDataset):
    """Rows given as a list of dicts (the same keys each); used to pad a dataset to a
    multiple of the shard count before ``concat``."""

    def __init__(self, padded_samples):
        if not isinstance(padded_samples, list) or not padded_samples or \
                not all(isinstance(s, dict) for s in padded_samples):
            raise DataError("bad padded_samples", op="PaddedDataset",
                            expected="a non-empty list of dicts", got=type(padded_samples).__name__)
        names = list(padded_samples[0])
        if any(list(s) != names for s in padded_samples):
            raise DataError("samples differ in keys", op="PaddedDataset", expected=names)
        self._setup(names, [tuple(s[n] for n in names) for s in padded_samples],
                    lambda r: r, shuffle=False)


class Schema:
    """Column names, types and shapes: ``add_column(name, de_type, shape=None)``; to and
    from JSON (``{"columns": {name: {"type": ..., "rank": n, "shape": [...]}}}``)."""

    def __init__(self, schema_file=None):
        self.columns, self.num_rows = [], None
        if schema_file is not None:
            self.from_json(json.loads(Path(schema_file).read_text(encoding="utf-8")))

    def add_column(self, name, de_type, shape=None):
        dtype = np.dtype(to_numpy(de_type)) if not (isinstance(de_type, str) and
                                                    de_type in ("string", "bytes")) else de_type
        self.columns.append({"name": name, "type": dtype,
                             "shape": None if shape is None else [int(s) for s in shape]})

    def parse_columns(self, columns):
        """Columns from ``{name: {"type": t, "shape": s}}`` or a list of such dicts with
        "name"."""
        self.columns = []
        items = columns.items() if isinstance(columns, dict) else \
            ((c["name"], c) for c in columns)
        for name, spec in items:
            self.add_column(name, spec["type"], spec.get("shape"))

    def to_json(self):
        cols = {}
        for c in self.columns:
            entry = {"type": c["type"] if isinstance(c["type"], str) else c["type"].name}
            if c["shape"] is not None:
                entry.update(rank=len(c["shape"]), shape=c["shape"])
            cols[c["name"]] = entry
        out = {"columns": cols}
        if self.num_rows is not None:
            out["numRows"] = self.num_rows
        return json.dumps(out, indent=2)

    def from_json(self, json_obj):
        if isinstance(json_obj, str):
            json_obj = json.loads(json_obj)
        self.num_rows = json_obj.get("numRows")
        self.parse_columns(json_obj["columns"])

    def __str__(self):
        return self.to_json()


def _schema_of(schema):
    if schema is None or isinstance(schema, Schema):
        return schema
    return Schema(schema)


class RandomDataset(FileDataset):
    """``total_rows`` rows of random values for ``schema``'s columns (or ``columns_list``
    of them); without a schema, a few random columns as MindSpore makes."""

    def __init__(self, total_rows=None, schema=None, columns_list=None, num_samples=None,
                 num_parallel_workers=None, cache=None, shuffle=None, num_shards=None,
                 shard_id=None):
        schema = _schema_of(schema)
        rng = np.random.default_rng(0)
        total = int(total_rows) if total_rows else int(rng.integers(1, 1025))
        if schema is None:
            schema = Schema()
            for k in range(int(rng.integers(1, 5))):
                schema.add_column(f"c{k}", rng.choice([np.uint8, np.int32, np.float32]),
                                  [int(s) for s in rng.integers(1, 8, int(rng.integers(1, 4)))])
        cols = [c for c in schema.columns if columns_list is None or c["name"] in columns_list]
        seed = int(rng.integers(1 << 31))

        def load(i):
            g = np.random.default_rng((seed, i))
            row = []
            for c in cols:
                shape = c["shape"] or []
                if c["type"] in ("string", "bytes"):
                    row.append(np.asarray(str(g.integers(1 << 30))))
                elif c["type"].kind == "f":
                    row.append(g.random(shape).astype(c["type"]))
                elif c["type"].kind == "b":
                    row.append(g.integers(0, 2, shape).astype(bool))
                else:
                    info = np.iinfo(c["type"])
                    row.append(g.integers(max(info.min, -128), min(info.max, 255) + 1, shape)
                               .astype(c["type"]))
            return tuple(row)
        self._setup([c["name"] for c in cols], list(range(total)), load, num_samples,
                    shuffle, None, num_shards, shard_id)


# -- TFRecord -----------------------------------------------------------------------------

def _crc_table():
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_CRC = _crc_table()


def crc32c(data: bytes) -> int:
    crc = 0xFFFFFFFF
    for b in data:
        crc = _CRC[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc(data: bytes) -> int:
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def _varint(buf, pos):
    value = shift = 0
    while True:
        b = buf[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        if not b & 0x80:
            return value, pos
        shift += 7


def _fields(buf):
    """(field number, wire type, value) of a protobuf message (value: an int or bytes)."""
    pos = 0
    while pos < len(buf):
        key, pos = _varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(buf, pos)
        elif wire == 2:
            size, pos = _varint(buf, pos)
            value, pos = buf[pos:pos + size], pos + size
        elif wire == 5:
            value, pos = buf[pos:pos + 4], pos + 4
        elif wire == 1:
            value, pos = buf[pos:pos + 8], pos + 8
        else:
            raise ValueError(f"unsupported protobuf wire type {wire}")
        yield number, wire, value


def _feature(buf):
    """A ``tf.train.Feature``: bytes (list of bytes), float (float32) or int64 values."""
    for number, _, value in _fields(buf):
        items = list(_fields(value))
        if number == 1:
            return [v for _, _, v in items]
        if number == 2:
            floats = []
            for _, wire, v in items:
                floats += list(np.frombuffer(v, "<f4")) if wire == 2 else \
                    [np.frombuffer(v, "<f4")[0]]
            return np.asarray(floats, np.float32)
        if number == 3:
            ints = []
            for _, wire, v in items:
                if wire == 2:
                    p = 0
                    while p < len(v):
                        x, p = _varint(v, p)
                        ints.append(x)
                else:
                    ints.append(v)
            return np.asarray([x - (1 << 64) if x >= 1 << 63 else x for x in ints], np.int64)
    return np.asarray([], np.float32)


def parse_example(buf: bytes) -> dict:
    """``{feature name: values}`` of a serialized ``tf.train.Example``."""
    out = {}
    for number, _, features in _fields(buf):
        if number != 1:
            continue
        for n, _, entry in _fields(features):
            if n != 1:
                continue
            key, value = None, b""
            for k, _, v in _fields(entry):
                if k == 1:
                    key = bytes(v).decode("utf-8")
                elif k == 2:
                    value = v
            out[key] = _feature(value)
    return out


def read_tfrecords(path):
    """The records of a TFRecord file, checking the masked CRC-32C of lengths and data."""
    raw = Path(path).read_bytes()
    pos, records = 0, []
    while pos < len(raw):
        if pos + 12 > len(raw):
            raise DataError("truncated TFRecord", op="TFRecordDataset", where=str(path))
        (length,) = struct.unpack("<Q", raw[pos:pos + 8])
        (length_crc,) = struct.unpack("<I", raw[pos + 8:pos + 12])
        if masked_crc(raw[pos:pos + 8]) != length_crc:
            raise DataError("bad length checksum", op="TFRecordDataset", where=f"{path}@{pos}")
        data = raw[pos + 12:pos + 12 + length]
        (data_crc,) = struct.unpack("<I", raw[pos + 12 + length:pos + 16 + length])
        if masked_crc(data) != data_crc:
            raise DataError("bad data checksum", op="TFRecordDataset", where=f"{path}@{pos}")
        records.append(data)
        pos += 16 + length
    return records


class TFRecordDataset(FileDataset):
    """TFRecord files of ``tf.train.Example``: one row per record; columns ``columns_list``
    (or the schema's, or the first record's features in sorted order). int64 features are
    int64, floats float32, bytes a bytes scalar (one value) or array; a ``schema`` casts
    and reshapes. ``compression_type`` None or "" only."""

    def __init__(self, dataset_files, schema=None, columns_list=None, num_samples=None,
                 num_parallel_workers=None, shuffle=True, num_shards=None, shard_id=None,
                 shard_equal_rows=False, cache=None, compression_type=None):
        if compression_type not in (None, ""):
            raise DataError("compressed TFRecord files are not read", op="TFRecordDataset",
                            expected="compression_type None or ''", got=compression_type)
        files = [dataset_files] if isinstance(dataset_files, (str, Path)) else list(dataset_files)
        records = [r for f in files for r in read_tfrecords(check_file(f, "TFRecordDataset"))]
        schema = _schema_of(schema)
        specs = {c["name"]: c for c in schema.columns} if schema is not None else {}
        if columns_list:
            names = list(columns_list)
        elif specs:
            names = list(specs)
        else:
            names = sorted(parse_example(records[0])) if records else []
        total = len(records) if not (schema and schema.num_rows) else min(len(records),
                                                                          schema.num_rows)

        def load(buf):
            example = parse_example(buf)
            row = []
            for name in names:
                if name not in example:
                    raise KeyError(f"feature {name!r} missing from a record")
                value = example[name]
                spec = specs.get(name)
                if isinstance(value, list):
                    value = np.asarray(value[0] if len(value) == 1 else value, dtype=np.bytes_)
                    if spec is not None and spec["type"] == "string":
                        value = np.char.decode(value, "utf-8")
                elif spec is not None and not isinstance(spec["type"], str):
                    value = value.astype(spec["type"])
                    if spec["shape"]:
                        value = value.reshape(spec["shape"])
                row.append(value)
            return tuple(row)
        self._setup(names, records[:total], load, num_samples, shuffle, None, num_shards,
                    shard_id)
