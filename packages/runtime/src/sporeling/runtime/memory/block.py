"""A block: one contiguous, aligned chunk of host memory that a region carves up."""
from __future__ import annotations

import mmap

import numpy as np

__all__ = ["Block", "round_up"]

_MADV_HUGEPAGE = getattr(mmap, "MADV_HUGEPAGE", None)  # Linux only
_HUGE_PAGE_MIN = 4 * 1024**2


def round_up(n: int, multiple: int) -> int:
    """The smallest multiple of ``multiple`` that is ``>= n``."""
    return -(-n // multiple) * multiple


class Block:
    """``size`` bytes whose first byte is ``alignment``-aligned.

    NumPy's own allocation is only 16-byte aligned, so the block over-allocates by
    ``alignment`` bytes and starts at the first aligned address (``raw[start]``). Offsets
    handed out are multiples of the alignment, hence every buffer is aligned too. The memory
    is an anonymous ``mmap`` rather than an array: buffers are built straight over ``raw``,
    and a non-array base keeps NumPy from collapsing their owner out of the ``.base`` chain
    (see :mod:`.buffer`). Like ``np.empty``, its pages are committed only when touched.

        >>> b = Block(0, "common", 4096, alignment=64)
        >>> b.address % 64, b.data.nbytes
        (0, 4096)

    With an ``allocator`` (an object whose ``allocate(nbytes)`` returns a writable buffer
    that is not a NumPy array, its memory given back when that object is collected) the
    memory is the allocator's instead of an ``mmap``.
    """

    __slots__ = ("id", "region", "size", "raw", "start", "data", "address")

    def __init__(self, block_id: int, region: str, size: int, *, alignment: int,
                 allocator=None) -> None:
        if allocator is not None:
            self.raw = allocator.allocate(size + alignment)
        else:
            self.raw = mmap.mmap(-1, size + alignment)
        if allocator is None and size >= _HUGE_PAGE_MIN and _MADV_HUGEPAGE is not None:
            self.raw.madvise(_MADV_HUGEPAGE)  # as NumPy does for its large arrays: fewer TLB misses
        whole = np.frombuffer(self.raw, dtype=np.uint8)
        self.start = (-whole.ctypes.data) % alignment
        self.id = block_id
        self.region = region
        self.size = size
        self.data = whole[self.start:self.start + size]
        self.address = self.data.ctypes.data

    def fill(self, offset: int, size: int, value: int) -> None:
        """Overwrite bytes (poisoning freed memory in debug mode)."""
        self.data[offset:offset + size].fill(value)

    def __repr__(self) -> str:
        return f"<Block {self.id} {self.region} {self.size} B at {self.address:#x}>"
