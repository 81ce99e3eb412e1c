"""Crash-safe file replacement: write a temporary file beside the target, flush and fsync
it, ``os.replace`` it over the target, then fsync the directory. A crash (or an exception)
at any point leaves either the old file or the new one, never a mix."""
from __future__ import annotations

import os
import tempfile
from typing import Callable

__all__ = ["atomic_write"]


def _fsync_dir(directory: str) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:  # platforms that cannot open directories (Windows)
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write(path: str, write: Callable[[str], None]) -> None:
    """Create ``path`` by ``write(tmp_path)`` followed by an atomic rename.

    ``write`` fills the temporary file (same directory, so the rename cannot cross file
    systems); if it raises, the temporary file is removed and ``path`` is untouched.
    """
    path = os.path.abspath(path)
    directory = os.path.dirname(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp",
                               dir=directory)
    os.close(fd)
    try:
        write(tmp)
        with open(tmp, "rb+") as f:
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    _fsync_dir(directory)
