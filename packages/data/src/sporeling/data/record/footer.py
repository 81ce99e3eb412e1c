"""Opening one shard: its Parquet footer, record metadata and sealed check, all verified.

Every way a footer can be unreadable or inconsistent ends here as a :class:`RecordError`
naming the file, never as a raw pyarrow, JSON or key error.
"""
from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from pathlib import Path

from ..errors import DataError, RecordError
from .integrity import CHECK_KEY, CHECKS, unseal
from .schema import check_schema
from .writer import META_KEY

__all__ = ["Shard", "open_shard", "open_parquet", "DECODE_ERRORS"]

# record metadata keys: files written before checks existed, and files that carry them
_PLAIN_KEYS = {"schema", "shards", "index_fields", "desc", "index_file", "shard"}
_CHECKED_KEYS = _PLAIN_KEYS | {"checks"}


def _decode_errors() -> tuple:
    import pyarrow as pa
    # what pyarrow's Parquet reader raises on damaged input, and what decoding damaged
    # values into NumPy raises (a reshape that does not fit, an offset out of range)
    return (pa.ArrowException, OSError, ValueError, KeyError, IndexError, TypeError,
            UnicodeDecodeError, OverflowError)


DECODE_ERRORS = _decode_errors()


@dataclass
class Shard:
    path: Path
    file: object          # pyarrow.parquet.ParquetFile, page checksums verified on read
    info: dict            # the record metadata (schema, shards, index fields, ...)
    groups: list | None   # per row group {"rows", "crc"}; None for files without checks


def open_parquet(path: Path):
    """A ParquetFile that verifies page checksums; a RecordError when the footer is bad."""
    import pyarrow.parquet as pq
    try:
        f = pq.ParquetFile(str(path), page_checksum_verification=True)
        f.metadata.metadata  # noqa: B018 -- parse the key-value metadata now
        return f
    except DECODE_ERRORS as exc:
        raise RecordError(f"cannot read the Parquet footer: {type(exc).__name__}: {exc}",
                          path=path, hint="the file is damaged or truncated") from exc


def _fail(path, message: str, **kw):
    raise RecordError(message, path=path, hint="the file is damaged or not a record file; "
                      "rewrite it from its source", **kw)


def _record_info(path: Path, kv: dict) -> dict:
    try:
        info = json.loads(kv[META_KEY])
    except (ValueError, UnicodeDecodeError) as exc:
        _fail(path, f"the record metadata is not valid JSON ({exc})")
    keys = set(info) if isinstance(info, dict) else None
    if keys not in (_PLAIN_KEYS, _CHECKED_KEYS) or \
            (keys == _CHECKED_KEYS and info["checks"] != CHECKS):
        _fail(path, "unknown record metadata", expected=sorted(_CHECKED_KEYS),
              got=sorted(keys) if keys else type(info).__name__)
    ok = isinstance(info["shards"], list) and all(isinstance(n, str) for n in info["shards"]) \
        and isinstance(info["shard"], int) and 0 <= info["shard"] < len(info["shards"]) \
        and isinstance(info["index_file"], str) and isinstance(info["index_fields"], list)
    if not ok:
        _fail(path, "malformed record metadata (shards, shard, index_file, index_fields)")
    try:
        info["schema"] = check_schema(info["schema"], op="RecordReader")
    except DataError as exc:
        _fail(path, f"the record schema is invalid: {exc.detail}", got=exc.got)
    except (ValueError, TypeError, AttributeError) as exc:
        _fail(path, f"the record schema is invalid: {exc}")
    if any(f not in info["schema"] for f in info["index_fields"]):
        _fail(path, "indexed fields missing from the schema", got=info["index_fields"])
    return info


def open_shard(path: Path) -> Shard:
    """The shard at ``path`` with its metadata checked against its seal and its footer."""
    from .arrow import arrow_schema
    f = open_parquet(path)
    kv = f.metadata.metadata or {}
    if META_KEY not in kv:
        raise RecordError(f"{path} is not a Sporeling record file", path=path,
                          expected=f"Parquet with {META_KEY.decode()} metadata",
                          got="a plain Parquet file")
    info = _record_info(path, kv)
    groups = None
    if "checks" in info:
        if CHECK_KEY not in kv:
            _fail(path, f"the footer's check ({CHECK_KEY.decode()}) is missing")
        check = unseal(kv[CHECK_KEY], path, "footer check")
        if check.get("record") != zlib.crc32(kv[META_KEY]):
            _fail(path, "the record metadata does not match its checksum")
        groups = check.get("groups") if isinstance(check, dict) else None
        if not isinstance(groups, list):
            _fail(path, "the footer check is not a shard's check")
    md = f.metadata
    rows = [md.row_group(g).num_rows for g in range(md.num_row_groups)]
    if groups is not None and rows != [g["rows"] for g in groups]:
        _fail(path, "the Parquet footer's row groups differ from the sealed ones",
              expected=[g["rows"] for g in groups], got=rows)
    try:
        types_ok = f.schema_arrow.remove_metadata().equals(arrow_schema(info["schema"]))
    except DECODE_ERRORS:
        types_ok = False
    if not types_ok:
        _fail(path, "the file's column types differ from its record schema")
    return Shard(path, f, info, groups)
