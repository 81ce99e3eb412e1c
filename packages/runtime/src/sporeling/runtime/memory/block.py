"""A block: one contiguous, aligned chunk of host memory that a region carves up."""
from __future__ import annotations

import numpy as np

__all__ = ["Block", "round_up"]


def round_up(n: int, multiple: int) -> int:
    """The smallest multiple of ``multiple`` that is ``>= n``."""
    return -(-n // multiple) * multiple


class Block:
    """``size`` bytes whose first byte is ``alignment``-aligned.

    NumPy's own allocation is only 16-byte aligned, so the block over-allocates by
    ``alignment`` bytes and starts at the first aligned address. Offsets handed out are
    multiples of the alignment, hence every buffer is aligned too.

        >>> b = Block(0, "common", 4096, alignment=64)
        >>> b.address % 64, b.data.nbytes
        (0, 4096)
    """

    __slots__ = ("id", "region", "size", "data", "address")

    def __init__(self, block_id: int, region: str, size: int, *, alignment: int) -> None:
        raw = np.empty(size + alignment, dtype=np.uint8)
        start = (-raw.ctypes.data) % alignment
        self.id = block_id
        self.region = region
        self.size = size
        self.data = raw[start:start + size]  # keeps ``raw`` alive through ``.base``
        self.address = self.data.ctypes.data

    def fill(self, offset: int, size: int, value: int) -> None:
        """Overwrite bytes (poisoning freed memory in debug mode)."""
        self.data[offset:offset + size].fill(value)

    def __repr__(self) -> str:
        return f"<Block {self.id} {self.region} {self.size} B at {self.address:#x}>"
