"""Pool buffers as NumPy arrays that give their memory back when the last view dies.

Each allocation gets one :class:`BufferOwner`. The array handed out is built from the
owner's ``__array_interface__``, so NumPy records the owner as the array's ``.base``; every
view, slice or reshape of it keeps the owner alive through the same ``.base`` chain. When
the last of them is garbage, the owner goes, and its ``weakref.finalize`` returns the extent
to the pool. Calling the finalizer early is the explicit free; ``weakref.finalize`` runs at
most once, which makes the two paths idempotent with each other.
"""
from __future__ import annotations

import weakref
from typing import Callable

import numpy as np

__all__ = ["BufferOwner", "owner_of"]


class BufferOwner:
    """Owns ``nbytes`` of a block for one allocation (the ``.base`` of the array)."""

    __slots__ = ("pool", "alloc_id", "block_data", "offset", "nbytes", "address",
                 "finalizer", "__weakref__")

    def __init__(self, pool, alloc_id: int, block_data: np.ndarray, block_address: int,
                 offset: int, nbytes: int, release: Callable[[int], None]) -> None:
        self.pool = pool
        self.alloc_id = alloc_id
        self.block_data = block_data  # the block's memory must outlive every view of it
        self.offset = offset
        self.nbytes = nbytes
        self.address = block_address + offset
        self.finalizer = weakref.finalize(self, release, alloc_id)
        self.finalizer.atexit = False  # the process is going: no bookkeeping (or poisoning)

    @property
    def __array_interface__(self) -> dict:
        return {"shape": (self.nbytes,), "typestr": "|u1", "version": 3,
                "data": (self.address, False)}

    def array(self, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
        """A C-contiguous array of ``shape``/``dtype`` over this owner's bytes."""
        raw = np.asarray(self)
        # .view handles extension dtypes (bfloat16) that a typestr cannot describe
        return raw.view(dtype).reshape(shape)

    @property
    def alive(self) -> bool:
        return self.finalizer.alive


def owner_of(array: np.ndarray) -> BufferOwner | None:
    """The pool allocation an array (or any view of it) lives in, if any."""
    base = array
    while isinstance(base, np.ndarray):
        base = base.base
    return base if isinstance(base, BufferOwner) else None
