"""Rows <-> Arrow tables for the record format (flattened list columns for arrays)."""
from __future__ import annotations

import numpy as np

__all__ = ["arrow_schema", "to_table", "from_table"]


def _value_type(kind: str):
    import pyarrow as pa
    return {"bytes": pa.binary(), "string": pa.string(), "bool": pa.bool_()}.get(kind) or \
        pa.from_numpy_dtype(np.dtype(kind))


def arrow_schema(schema: dict):
    import pyarrow as pa
    fields = []
    for name, spec in schema.items():
        t = _value_type(spec["type"])
        fields.append(pa.field(name, t if spec["shape"] is None else pa.list_(t)))
    return pa.schema(fields)


def to_table(rows: list[dict], schema: dict, arrow_schema_):
    import pyarrow as pa
    columns = []
    for name, spec in schema.items():
        values = [r[name] for r in rows]
        t = _value_type(spec["type"])
        if spec["shape"] is None:
            if spec["type"] in ("bytes", "string"):
                columns.append(pa.array(values, t))
            else:
                columns.append(pa.array(np.asarray(values, spec["type"]), t))
            continue
        sizes = np.fromiter((v.size for v in values), np.int64, len(values))
        offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int32)
        flat = np.concatenate([v.ravel() for v in values]) if values else np.zeros(0)
        columns.append(pa.ListArray.from_arrays(pa.array(offsets, pa.int32()),
                                                pa.array(flat.astype(spec["type"]), t)))
    return pa.Table.from_arrays(columns, schema=arrow_schema_)


def from_table(table, schema: dict, names: list[str]) -> list:
    """Each column of ``names`` as a per-row sequence of NumPy values."""
    out = []
    for name in names:
        spec, column = schema[name], table.column(name).combine_chunks()
        kind, shape = spec["type"], spec["shape"]
        if shape is None:
            if kind == "bytes":
                out.append([np.frombuffer(v, np.uint8) for v in column.to_pylist()])
            elif kind == "string":
                out.append(np.asarray(column.to_pylist(), np.str_))
            else:
                out.append(column.to_numpy(zero_copy_only=False).astype(kind, copy=False))
            continue
        flat = column.flatten().to_numpy(zero_copy_only=False).astype(kind, copy=False)
        if -1 not in shape:
            out.append(flat.reshape([len(column)] + shape))
            continue
        offsets = column.offsets.to_numpy()
        offsets = offsets - offsets[0]
        free = int(np.prod([s for s in shape if s != -1]))
        rows = []
        for a, b in zip(offsets[:-1], offsets[1:]):
            part = flat[a:b]
            rows.append(part.reshape([(b - a) // free if s == -1 else s for s in shape]))
        out.append(rows)
    return out
