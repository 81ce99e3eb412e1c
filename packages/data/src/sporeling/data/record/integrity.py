"""What makes a damaged record file an error instead of wrong rows.

Parquet page checksums (written, and verified on read) cover the pages' data, but not the
page headers, the footer (row counts, offsets, encodings, types) or our own metadata, and a
flipped byte there can decode to other values without a word. So each shard's footer also
carries a *sealed* check (``sporeling.record.check``): the CRC-32 of the record metadata,
and per row group its row count and one CRC-32 per column of the decoded values. A row
group is compared with it after decoding, before any row leaves the reader. A sealed text
is ``<crc32 of the JSON, 8 hex digits><JSON>``: any change to it is noticed.
"""
from __future__ import annotations

import json
import zlib

import numpy as np

from ..errors import RecordError

__all__ = ["CHECK_KEY", "CHECKS", "seal", "unseal", "column_crcs"]

CHECK_KEY = b"sporeling.record.check"
CHECKS = "crc32-v1"  # the record metadata's "checks" entry: files that carry CHECK_KEY


def seal(obj) -> bytes:
    text = json.dumps(obj, sort_keys=True).encode()
    return b"%08x" % zlib.crc32(text) + text


def unseal(raw: bytes, path, what: str):
    """The object sealed in ``raw``; a RecordError naming ``path`` when it was changed."""
    body = raw[8:]
    try:
        ok = int(raw[:8], 16) == zlib.crc32(body)
    except ValueError:
        ok = False
    if not ok:
        raise RecordError(f"the {what} does not match its checksum", path=path,
                          hint="the file is damaged; rewrite it from its source")
    return json.loads(body)


def _crc(arr, crc: int) -> int:
    import pyarrow as pa
    crc = zlib.crc32(b"%d:%d;" % (len(arr), arr.null_count), crc)
    t = arr.type
    if pa.types.is_list(t):
        offsets = arr.offsets.to_numpy().astype(np.int64)
        crc = zlib.crc32((offsets - offsets[0]).tobytes(), crc)
        return _crc(arr.flatten(), crc)
    if pa.types.is_binary(t) or pa.types.is_string(t):
        bufs = arr.buffers()
        offsets = np.frombuffer(bufs[1], np.int32)[arr.offset:arr.offset + len(arr) + 1] \
            if len(arr) else np.zeros(1, np.int32)
        crc = zlib.crc32((offsets - offsets[0]).astype(np.int64).tobytes(), crc)
        if bufs[2] is not None and offsets[-1] > offsets[0]:
            crc = zlib.crc32(memoryview(bufs[2])[offsets[0]:offsets[-1]], crc)
        return crc
    if arr.null_count:
        arr = arr.fill_null(False if pa.types.is_boolean(t) else 0)
    return zlib.crc32(np.ascontiguousarray(arr.to_numpy(zero_copy_only=False)).tobytes(), crc)


def column_crcs(table, names) -> dict[str, int]:
    """``{column: CRC-32}`` of the decoded values of ``table``'s columns ``names``, the same
    however Arrow happens to lay them out (chunks, slice offsets)."""
    return {name: _crc(table.column(name).combine_chunks(), 0) for name in names}
