"""The record format's schema: column name -> type and shape, mapped onto Arrow types.

A column is a scalar (no ``shape``), a fixed-shape array (``shape=[3, 32, 32]``) or an
array with one free axis (``shape=[-1]`` or ``[-1, 4]``), stored flattened in an Arrow list
column; ``bytes`` and ``string`` columns hold one value per row.
"""
from __future__ import annotations

import numpy as np

from ..errors import DataError

__all__ = ["NUMERIC", "check_schema", "to_numpy_value"]

NUMERIC = {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float16", "float32", "float64", "bool"}


def check_schema(schema: dict, op: str = "FileWriter") -> dict:
    """The schema normalised to ``{name: {"type": t, "shape": list or None}}``."""
    if not isinstance(schema, dict) or not schema:
        raise DataError("bad schema", op=op, expected="{column: {'type': ..., 'shape': ...}}",
                        got=repr(schema)[:80])
    out = {}
    for name, spec in schema.items():
        kind = spec.get("type") if isinstance(spec, dict) else None
        if kind not in NUMERIC | {"bytes", "string"}:
            raise DataError(f"bad type for column {name!r}", op=op,
                            expected=f"one of {sorted(NUMERIC)} or 'bytes', 'string'",
                            got=repr(kind))
        shape = spec.get("shape")
        if shape is not None:
            shape = [int(s) for s in shape]
            if kind in ("bytes", "string") or sum(s == -1 for s in shape) > 1 or \
                    any(s == 0 or s < -1 for s in shape):
                raise DataError(f"bad shape for column {name!r}", op=op,
                                expected="positive sizes with at most one -1, numeric types "
                                "only", got=shape)
        out[name] = {"type": kind, "shape": shape}
    return out


def to_numpy_value(name: str, spec: dict, value, where: str):
    """One row's value checked against its column spec."""
    kind, shape = spec["type"], spec["shape"]
    if kind == "bytes":
        if not isinstance(value, (bytes, bytearray, memoryview, np.ndarray)):
            raise DataError(f"column {name!r} wants bytes", op="FileWriter",
                            got=type(value).__name__, where=where)
        return bytes(value.tobytes() if isinstance(value, np.ndarray) else value)
    if kind == "string":
        return str(value)
    arr = np.asarray(value, dtype=kind)
    if shape is None:
        if arr.ndim:
            raise DataError(f"column {name!r} is a scalar", op="FileWriter",
                            expected="shape ()", got=arr.shape, where=where)
        return arr
    ok = arr.ndim == len(shape) and all(s in (-1, d) for s, d in zip(shape, arr.shape))
    if not ok:
        raise DataError(f"column {name!r} has the wrong shape", op="FileWriter",
                        expected=shape, got=list(arr.shape), where=where)
    return arr
