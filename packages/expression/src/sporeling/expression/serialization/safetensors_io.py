"""Reading and writing the safetensors format (no pickle anywhere).

Serialized to bytes with the ``safetensors`` library and written through one file handle
of ours (:func:`atomic_write`: one temporary per save, none from the library); read with
its validating ``deserialize`` and decoded here, so that dtypes its NumPy layer lacks
(bfloat16, float8) round-trip through ``ml_dtypes``. String metadata rides in the header's
``__metadata__``.
"""
from __future__ import annotations

import json
import os

import ml_dtypes
import numpy as np
from safetensors import SafetensorError, deserialize
from safetensors.numpy import save

from sporeling.core import SporelingError

from .atomic import atomic_write

__all__ = ["write_tensors", "read_tensors", "CheckpointError"]

_DTYPES = {
    "F64": np.float64, "F32": np.float32, "F16": np.float16, "BF16": ml_dtypes.bfloat16,
    "F8_E4M3": ml_dtypes.float8_e4m3fn, "F8_E5M2": ml_dtypes.float8_e5m2,
    "I64": np.int64, "I32": np.int32, "I16": np.int16, "I8": np.int8,
    "U64": np.uint64, "U32": np.uint32, "U16": np.uint16, "U8": np.uint8,
    "BOOL": np.bool_, "C64": np.complex64,
}


class CheckpointError(SporelingError, ValueError):
    """A checkpoint file cannot be read, or does not fit the network."""


def write_tensors(path: str, tensors: dict[str, np.ndarray],
                  metadata: dict[str, str] | None = None) -> None:
    """Write ``tensors`` to ``path`` atomically (the old file survives a failed write)."""
    arrays = {name: np.ascontiguousarray(a) for name, a in tensors.items()}
    data = save(arrays, metadata=metadata)

    def write(tmp: str) -> None:
        with open(tmp, "wb") as f:
            f.write(data)

    atomic_write(path, write)


def read_tensors(path: str) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    """``(tensors, metadata)`` from a safetensors file, in the file's order; a clear error
    naming the file when it is truncated or not safetensors."""
    if not os.path.isfile(path):
        raise FileNotFoundError(f"checkpoint file not found: {path!r}")
    with open(path, "rb") as f:
        data = f.read()
    try:
        entries = deserialize(data)
        header_len = int.from_bytes(data[:8], "little")
        header = json.loads(data[8:8 + header_len])
    except (SafetensorError, ValueError, UnicodeDecodeError) as exc:
        raise CheckpointError("not a readable safetensors checkpoint (truncated or another "
                              "format)", op="load_checkpoint", where=path,
                              got=f"{len(data)} bytes; {exc}") from None
    order = {name: spec["data_offsets"][0] for name, spec in header.items()
             if name != "__metadata__"}
    tensors = {}
    for name, spec in sorted(entries, key=lambda e: order.get(e[0], 0)):
        dtype = _DTYPES.get(spec["dtype"])
        if dtype is None:
            raise CheckpointError(f"tensor {name!r} has a dtype Sporeling cannot load",
                                  op="load_checkpoint", where=path, got=spec["dtype"],
                                  expected=f"one of {sorted(_DTYPES)}")
        tensors[name] = np.frombuffer(spec["data"], dtype=dtype).reshape(spec["shape"])
    return tensors, dict(header.get("__metadata__") or {})
