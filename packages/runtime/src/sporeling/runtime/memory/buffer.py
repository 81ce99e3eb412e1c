"""Pool buffers as NumPy arrays that give their memory back when the last view dies.

Each allocation gets one :class:`BufferOwner`: an ndarray subclass built straight over the
block's memory with the buffer's shape and dtype. The array handed out is a plain-ndarray
view of it, so the owner is its ``.base``, and every view, slice or reshape keeps the owner
alive through the same ``.base`` chain (NumPy collapses a chain only through arrays of the
same type, and the owner's own base is the block's ``mmap``, not an array). When the
last of them is garbage the owner goes, and its ``__del__`` returns the extent to the pool
(a ``__del__`` costs a fraction of a ``weakref.finalize``, and building the owner as an
array costs a third of an ``__array_interface__`` round trip: this is the hot path of every
op). :meth:`BufferOwner.release` is the explicit free.

The owner holds two slots, set once at allocation: its ``pool`` and its ``extent`` (the
pool's record of where the bytes are, see :class:`~.pool.Extent`), which becomes ``None``
when the bytes go back. Taking the extent out is what makes the two ways back idempotent
with each other: only the one that takes it returns it (``release`` takes it under the
pool's lock, so two threads freeing one array cannot both return it; ``__del__`` needs no
lock, as nobody else can reach a dying owner).

``__del__`` hands the extent to the pool's queue of frees (an atomic ``deque.append``),
which the pool accounts at its next allocation or statistics read, under the lock it takes
then anyway: a free costs no lock of its own. Only with ``mempool_poison`` on (the bytes
must be overwritten now) or a memory listener (a profiler sees each free when it happens)
does it return the extent at once.
"""
from __future__ import annotations

import numpy as np

from sporeling.core.context import _version as _CONTEXT_VERSION

from ..events import memory_listeners as _memory_listeners

__all__ = ["BufferOwner", "owner_of"]

_ndarray = np.ndarray


class BufferOwner(np.ndarray):
    """Owns one allocation's bytes of a block (the ``.base`` of the array handed out)."""

    __slots__ = ("pool", "extent")

    # MemoryPool.allocate builds it: ndarray.__new__(BufferOwner, shape, dtype, block.raw,
    # offset), sets the two slots and hands out ``owner.view(np.ndarray)``.

    @property
    def address(self) -> int:
        return self.ctypes.data

    def release(self) -> None:
        """Give the bytes back now (at most once)."""
        self.pool._release_owner(self)

    def __del__(self) -> None:
        try:
            extent = self.extent
        except AttributeError:  # an owner NumPy made (a copy, a view cast to this class)
            return
        if extent is not None:
            self.extent = None
            pool = self.pool
            try:
                if pool._quiet_version == _CONTEXT_VERSION[0] and not _memory_listeners:
                    # no poison to write, no profiler to tell: the pool accounts the free
                    # at its next allocation or read, under the lock it takes then anyway
                    pool._freed.append(extent)
                else:
                    pool._release(extent)
            except Exception:  # interpreter shutdown: nothing left to account to
                pass

    @property
    def alive(self) -> bool:
        return self.extent is not None

    def __repr__(self) -> str:
        state = "live" if self.extent is not None else "released"
        return f"<BufferOwner of {self.nbytes} B at {self.address:#x}, {state}>"

    def __reduce__(self):  # an owner is pool bookkeeping, never data to pickle
        raise TypeError("a pool BufferOwner cannot be pickled; pickle the array instead")


def owner_of(array: np.ndarray) -> BufferOwner | None:
    """The pool allocation an array (or any view of it) lives in, if any."""
    base = array
    while isinstance(base, _ndarray):
        if type(base) is BufferOwner:
            return base
        base = base.base
    return None
