"""Arrays in shared memory, described by plain JSON-able layouts.

What crosses a process boundary between the pipeline and its workers is (a) JSON headers
(ints, strings, dtype strings such as ``"<f4"``) over a pipe, and (b) raw array bytes in
shared-memory segments. Nothing is unpickled: a header is parsed with ``json`` and a dtype
string with ``numpy.dtype``; arrays of Python objects are refused.

Segments are created (and unlinked) by the main process only, through
``multiprocessing.shared_memory`` so its resource tracker removes them even if the main
process dies; workers map them by name without registering them anywhere.
"""
from __future__ import annotations

import mmap
import os
from multiprocessing import shared_memory

import numpy as np

from ..errors import DataError

__all__ = ["Segment", "attach", "layout_of", "write_arrays", "read_arrays", "ALIGN"]

ALIGN = 64


class Segment:
    """A shared-memory segment owned by the main process."""

    def __init__(self, size: int):
        self._shm = shared_memory.SharedMemory(create=True, size=max(int(size), ALIGN))
        self.name, self.size, self.buf = self._shm.name, self._shm.size, self._shm.buf

    def close(self) -> None:
        if self._shm is not None:
            self.buf = None
            self._shm.close()
            self._shm.unlink()
            self._shm = None


def attach(name: str) -> mmap.mmap:
    """Map an existing segment in a worker (not registered with the resource tracker:
    the main process owns it and unlinks it)."""
    import _posixshmem
    fd = _posixshmem.shm_open("/" + name.lstrip("/"), os.O_RDWR, mode=0o600)
    try:
        return mmap.mmap(fd, os.fstat(fd).st_size)
    finally:
        os.close(fd)


def _check(a: np.ndarray, what: str) -> np.ndarray:
    if isinstance(a, dict):
        raise DataError(f"{what} is a dict column", op="map",
                        expected="NumPy arrays (process workers carry only NumPy data, never "
                        "pickles)", got="dict",
                        hint="use python_multiprocessing=False (threads keep dicts)")
    if a.dtype.hasobject:
        raise DataError(f"{what} is an array of Python objects", op="map",
                        expected="numeric, bool, bytes or str arrays (process workers carry "
                        "only NumPy data, never pickles)", got=str(a.dtype),
                        hint="return NumPy arrays, or use python_multiprocessing=False")
    return a


def layout_of(arrays, start: int = 0, what: str = "a column"):
    """``([[dtype, shape, offset], ...], end)`` placing ``arrays`` from byte ``start``."""
    entries, off = [], start
    for a in arrays:
        _check(a, what)
        off = -(-off // ALIGN) * ALIGN
        entries.append([a.dtype.str, list(a.shape), off])
        off += a.nbytes
    return entries, off


def write_arrays(buf, arrays, entries) -> None:
    for a, (dtype, shape, off) in zip(arrays, entries):
        if a.size:
            np.ndarray(shape, dtype, buffer=buf, offset=off)[...] = a


def read_arrays(buf, entries, copy: bool = True) -> list[np.ndarray]:
    out = []
    for dtype, shape, off in entries:
        if 0 in shape:
            out.append(np.empty(shape, np.dtype(dtype)))
            continue
        view = np.ndarray(shape, np.dtype(dtype), buffer=buf, offset=off)
        out.append(view.copy() if copy else view)
    return out
