"""Crash-safe file replacement: write one temporary file beside the target, fsync it,
``os.replace`` it over the target, then fsync the directory. A crash (or an exception) at
any point leaves either the old file or the new one, never a mix.

The temporary is named ``.<target>.tmp-<pid>-<random>`` so a leftover says what it belongs
to and who wrote it; a process killed mid-save (``kill -9``, power loss) cannot remove its
own, so the next save of the same target removes those whose process is gone. The file is
created with mode ``0o666`` less the umask, as ``open()`` would create the target itself.
"""
from __future__ import annotations

import os
import re
import secrets
from typing import Callable

__all__ = ["atomic_write", "temporary_name", "remove_stale_temporaries"]


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


def temporary_name(path: str) -> str:
    """``<dir>/.<name>.tmp-<pid>-<random>``: the temporary that will replace ``path``."""
    directory, name = os.path.split(os.path.abspath(path))
    return os.path.join(directory, f".{name}.tmp-{os.getpid()}-{secrets.token_hex(4)}")


def _process_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True  # another thread of ours may be saving the same target
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # someone else's process (or we cannot tell): leave its file alone
    return True


def remove_stale_temporaries(path: str) -> list[str]:
    """Remove the temporaries of ``path`` left by processes that no longer run; returns
    their paths. Temporaries of other targets, and of live processes, are kept."""
    directory, name = os.path.split(os.path.abspath(path))
    pattern = re.compile(rf"\.{re.escape(name)}\.tmp-(\d+)-[0-9a-f]+\Z")
    removed = []
    try:
        entries = os.listdir(directory)
    except OSError:
        return removed
    for entry in entries:
        match = pattern.match(entry)
        if match is None or _process_alive(int(match.group(1))):
            continue
        stale = os.path.join(directory, entry)
        try:
            os.unlink(stale)
            removed.append(stale)
        except FileNotFoundError:  # another save cleaned it first
            pass
    return removed


def atomic_write(path: str, write: Callable[[str], None]) -> None:
    """Create ``path`` by ``write(tmp_path)`` followed by an atomic rename.

    ``write`` fills the temporary file (created empty, same directory, so the rename cannot
    cross file systems); if it raises, the temporary file is removed and ``path`` is
    untouched. Stale temporaries of ``path`` (from killed processes) are removed first.
    """
    path = os.path.abspath(path)
    directory = os.path.dirname(path)
    remove_stale_temporaries(path)
    tmp = temporary_name(path)
    os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))  # mode: umask's
    try:
        write(tmp)
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    _fsync_dir(directory)
