"""MPICH's shared-memory files of an ended job.

MPICH's ranks on one machine talk through files ``/dev/shm/mpich_shm_*`` (2 MiB each),
which the ranks remove when they finalize -- not when a job is aborted (a rank raised,
Ctrl-C, a kill): each aborted job left one behind. ``sporeling run`` removes, after its
job ended, the ones created since the job started that no live process still maps (so a
concurrent job's files stay).
"""
from __future__ import annotations

import os
import time
from pathlib import Path

__all__ = ["SHM_DIR", "orphaned_segments", "remove_orphaned_segments"]

SHM_DIR = Path("/dev/shm")
PATTERN = "mpich_shm_*"


def _mapped() -> set[str]:
    """Every file some live process maps (read from /proc/<pid>/maps; processes we may not
    read are skipped, so their files count as unmapped only if they are ours anyway)."""
    paths = set()
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/maps") as maps:
                for line in maps:
                    if "/dev/shm/" in line:
                        paths.add(line.rsplit(None, 1)[-1].removesuffix(" (deleted)"))
        except OSError:  # gone, or not ours to read
            continue
    return paths


def orphaned_segments(since: float, folder: Path = SHM_DIR) -> list[Path]:
    """MPICH segment files in ``folder`` modified at or after ``since`` (a ``time.time()``)
    and mapped by no live process."""
    if not folder.is_dir():
        return []
    candidates = [p for p in folder.glob(PATTERN) if _recent(p, since)]
    if not candidates:
        return []
    mapped = _mapped()
    return [p for p in candidates if str(p) not in mapped]


def _me() -> str:
    import pwd
    return pwd.getpwuid(os.getuid()).pw_name


def remove_orphaned_segments(since: float, folder: Path = SHM_DIR,
                             wait: float = 2.0) -> list[Path]:
    """Remove :func:`orphaned_segments`; returns what was removed. Ranks of an aborted job
    may take a moment to die and unmap their files: files of ours still mapped are looked
    at again for up to ``wait`` seconds."""
    removed, deadline = [], time.monotonic() + wait
    while True:
        for path in orphaned_segments(since, folder):
            try:
                path.unlink()
                removed.append(path)
            except OSError:
                pass
        recent = [p for p in folder.glob(PATTERN) if _recent(p, since)] \
            if folder.is_dir() else []
        if not recent or time.monotonic() > deadline:
            return removed
        time.sleep(0.1)


def _recent(path: Path, since: float) -> bool:
    try:
        return path.stat().st_mtime >= since and path.owner() == _me()
    except (OSError, KeyError):
        return False
