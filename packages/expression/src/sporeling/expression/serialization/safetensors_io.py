"""Reading and writing the safetensors format (no pickle anywhere).

Serialized to bytes with the ``safetensors`` library and written through one file handle
of ours (:func:`atomic_write`: one temporary per save, none from the library); read with
its validating ``deserialize`` and decoded here, so that dtypes its NumPy layer lacks
(bfloat16, float8) round-trip through ``ml_dtypes``. String metadata rides in the header's
``__metadata__``.

Every file written here carries a CRC32 per tensor (and one over the other metadata) in
the header entry ``sporeling.checksums`` (:mod:`.checksums`); reading checks them all, so a
damaged file is a :class:`CheckpointError` naming the tensor, never changed weights. Files
without that entry (other tools', older Sporeling's) load unchecked.
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
from .checksums import KEY, metadata_checksum, tensor_checksum

__all__ = ["write_tensors", "read_tensors", "CheckpointError"]

_DTYPES = {
    "F64": np.float64, "F32": np.float32, "F16": np.float16, "BF16": ml_dtypes.bfloat16,
    "F8_E4M3": ml_dtypes.float8_e4m3fn, "F8_E5M2": ml_dtypes.float8_e5m2,
    "I64": np.int64, "I32": np.int32, "I16": np.int16, "I8": np.int8,
    "U64": np.uint64, "U32": np.uint32, "U16": np.uint16, "U8": np.uint8,
    "BOOL": np.bool_, "C64": np.complex64,
}


# the checksums' entry for the header's other metadata (no tensor may bear that name)
_OTHER_METADATA = "__metadata__"


class CheckpointError(SporelingError, ValueError):
    """A checkpoint file cannot be read, or does not fit the network."""


def _little_endian(array) -> np.ndarray:
    array = np.asarray(array, order="C")  # ascontiguousarray would make a 0-d array (1,)
    little = array.dtype.newbyteorder("<")
    return array if array.dtype == little else array.astype(little)


def write_tensors(path: str, tensors: dict[str, np.ndarray],
                  metadata: dict[str, str] | None = None) -> None:
    """Write ``tensors`` to ``path`` atomically (the old file survives a failed write), with
    their checksums."""
    arrays = {name: _little_endian(a) for name, a in tensors.items()}
    metadata = {k: v for k, v in (metadata or {}).items() if k != KEY}
    sums = {name: tensor_checksum(name, a) for name, a in arrays.items()}
    sums[_OTHER_METADATA] = metadata_checksum(metadata)
    data = _sorted_metadata(save(arrays, metadata={**metadata,
                                                   KEY: json.dumps(sums, separators=(",", ":"))}))

    def write(tmp: str) -> None:
        with open(tmp, "wb") as f:
            f.write(data)

    atomic_write(path, write)


def _sorted_metadata(data: bytes) -> bytes:
    """``data`` with its metadata entries in sorted order. safetensors writes them from a
    hash map, in an order that changes from call to call, so the same checkpoint saved
    twice would differ byte for byte; the entries are the same, so the header keeps its
    length and the tensors their offsets."""
    length = int.from_bytes(data[:8], "little")
    header = json.loads(data[8:8 + length])
    if len(header.get("__metadata__") or {}) < 2:
        return data
    header["__metadata__"] = dict(sorted(header["__metadata__"].items()))
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode()
    if len(text) > length:  # not the same spelling as safetensors': keep its order
        return data
    return data[:8] + text.ljust(length) + data[8 + length:]


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
    metadata = dict(header.get("__metadata__") or {})
    if KEY in metadata:
        _verify(tensors, metadata, path)
    return tensors, metadata


def _damaged(message: str, path: str, tensor: str | None = None, **extra) -> CheckpointError:
    if tensor is not None:
        message = f"tensor {tensor!r}: {message}"
    return CheckpointError(message, op="load_checkpoint", where=path,
                           hint="the file is damaged; load an intact copy", **extra)


def _verify(tensors: dict[str, np.ndarray], metadata: dict[str, str], path: str) -> None:
    """Check the checksums the file was written with (and take them out of ``metadata``):
    every tensor has one and matches it, and every one has its tensor."""
    text = metadata.pop(KEY)
    try:
        sums = json.loads(text)
    except ValueError:
        sums = None
    if not isinstance(sums, dict) or not all(isinstance(v, str) for v in sums.values()):
        raise _damaged(f"the header's {KEY!r} entry is not a JSON object of strings", path,
                       got=repr(text[:80]))
    for name, array in tensors.items():
        if name not in sums:
            raise _damaged("no checksum was stored for it", path, name)
        actual = tensor_checksum(name, array)
        if actual != sums[name]:
            raise _damaged("its bytes, dtype or shape do not match the checksum stored with "
                           "it", path, name, expected=f"CRC32 {sums[name]}",
                           got=f"CRC32 {actual}")
    for name in sums:
        if name != _OTHER_METADATA and name not in tensors:
            raise _damaged("it has a checksum but is missing from the file", path, name)
    if sums.get(_OTHER_METADATA) != metadata_checksum(metadata):
        raise _damaged("the header's metadata entries do not match their checksum", path,
                       got=", ".join(sorted(metadata)) or "no entries")
