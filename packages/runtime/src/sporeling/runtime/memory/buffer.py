"""Pool buffers as NumPy arrays that give their memory back when the last view dies.

Each allocation gets one :class:`BufferOwner`. The array handed out is built from the
owner's ``__array_interface__``, so NumPy records the owner as the array's ``.base``; every
view, slice or reshape of it keeps the owner alive through the same ``.base`` chain. When
the last of them is garbage, the owner goes, and its ``__del__`` returns the extent to the
pool (a ``__del__`` costs a fraction of a ``weakref.finalize``, and this is the hot path of
every op). :meth:`BufferOwner.release` is the explicit free; a flag makes the two paths
idempotent with each other.
"""
from __future__ import annotations

import numpy as np

__all__ = ["BufferOwner", "owner_of"]


class BufferOwner:
    """Owns ``nbytes`` of a block for one allocation (the ``.base`` of the array)."""

    __slots__ = ("pool", "alloc_id", "block_data", "nbytes", "address", "released",
                 "__array_interface__", "__weakref__")

    def __init__(self, pool, alloc_id: int, block_data: np.ndarray, address: int,
                 nbytes: int) -> None:
        self.pool = pool
        self.alloc_id = alloc_id
        self.block_data = block_data  # the block's memory must outlive every view of it
        self.nbytes = nbytes
        self.address = address
        self.released = False
        self.__array_interface__ = {"shape": (nbytes,), "typestr": "|u1", "version": 3,
                                    "data": (address, False)}

    def array(self, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
        """A C-contiguous array of ``shape``/``dtype`` over this owner's bytes."""
        # .view handles extension dtypes (bfloat16) that a typestr cannot describe
        return np.asarray(self).view(dtype).reshape(shape)

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


def owner_of(array: np.ndarray) -> BufferOwner | None:
    """The pool allocation an array (or any view of it) lives in, if any."""
    base = array
    while isinstance(base, np.ndarray):
        base = base.base
    return base if isinstance(base, BufferOwner) else None
