"""Helpers shared by the file sources: reading (optionally gzipped) files, listing shards."""
from __future__ import annotations

import gzip
from pathlib import Path

from ..errors import DataError

__all__ = ["read_bytes", "find_file"]


def read_bytes(path: Path) -> bytes:
    """The file's bytes, un-gzipped when it ends in ``.gz``; errors name the file."""
    try:
        if path.suffix == ".gz":
            with gzip.open(path, "rb") as f:
                return f.read()
        return path.read_bytes()
    except (OSError, EOFError) as exc:
        raise DataError(f"cannot read {path}: {exc}", where=str(path)) from exc


def find_file(folder: Path, name: str, op: str) -> Path:
    """``folder/name`` or ``folder/name.gz``, whichever exists."""
    for candidate in (folder / name, folder / (name + ".gz")):
        if candidate.is_file():
            return candidate
    raise DataError(f"missing file {name}", op=op, expected=f"{folder / name} (or .gz)",
                    got="no such file")


def check_dir(dataset_dir, op: str) -> Path:
    folder = Path(dataset_dir)
    if not folder.is_dir():
        raise DataError("dataset_dir is not a folder", op=op, expected="an existing folder",
                        got=str(folder))
    return folder


def check_usage(usage, allowed: tuple, op: str) -> str:
    usage = usage or "all"
    if usage not in allowed:
        raise DataError("bad usage", op=op, expected=" or ".join(map(repr, allowed)),
                        got=repr(usage))
    return usage
