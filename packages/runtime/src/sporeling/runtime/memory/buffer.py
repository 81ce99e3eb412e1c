"""Pool buffers as NumPy arrays that give their memory back when the last view dies.

Each allocation gets one :class:`BufferOwner`: an ndarray subclass built straight over the
block's memory with the buffer's shape and dtype. The array handed out is a plain-ndarray
view of it, so the owner is its ``.base``, and every view, slice or reshape keeps the owner
alive through the same ``.base`` chain (NumPy collapses a chain only through arrays of the
same type, and the owner's own base is the block's ``mmap``, not an array). When the
last of them is garbage the owner goes, and its ``__del__`` returns the extent to the pool
(a ``__del__`` costs a fraction of a ``weakref.finalize``, and building the owner as an
array costs a third of an ``__array_interface__`` round trip: this is the hot path of every
op). :meth:`BufferOwner.release` is the explicit free; a flag makes the two paths
idempotent with each other.
"""
from __future__ import annotations

import numpy as np

__all__ = ["BufferOwner", "owner_of"]

_ndarray = np.ndarray


class BufferOwner(np.ndarray):
    """Owns one allocation's bytes of a block (the ``.base`` of the array handed out)."""

    __slots__ = ("pool", "alloc_id", "released")

    # MemoryPool.allocate builds it: ndarray.__new__(BufferOwner, shape, dtype, block.raw,
    # offset), sets the three slots and hands out ``owner.view(np.ndarray)``.

    @property
    def address(self) -> int:
        return self.ctypes.data

    def release(self) -> None:
        """Give the bytes back now (at most once)."""
        if not self.released:
            self.released = True
            self.pool._release(self.alloc_id)

    def __del__(self) -> None:
        if not self.released:
            self.released = True
            try:
                self.pool._release(self.alloc_id)
            except Exception:  # interpreter shutdown: nothing left to account to
                pass

    @property
    def alive(self) -> bool:
        return not self.released

    def __repr__(self) -> str:
        return f"<BufferOwner {self.alloc_id} of {self.nbytes} B at {self.address:#x}>"

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
