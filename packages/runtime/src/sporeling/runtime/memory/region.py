"""A region of the pool (persistent or common): its blocks, free extents and counters."""
from __future__ import annotations

from .block import Block
from .extents import FreeExtents
from .stats import RegionStats

__all__ = ["Region"]


class Region:
    """Blocks owned by one region, carved best-fit; counters for its statistics."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.blocks: dict[int, Block] = {}
        self.free = FreeExtents()
        self.reserved = self.in_use = self.peak = self.allocations = self.live = 0

    def take(self, size: int) -> tuple[Block, int] | None:
        """Best-fit ``size`` bytes from this region's free extents (no growth)."""
        hit = self.free.take(size)
        if hit is None:
            return None
        block_id, offset = hit
        self.claim(size)
        return self.blocks[block_id], offset

    def claim(self, size: int) -> None:
        """Count ``size`` bytes as handed out (from the free extents or the pool's cache;
        the pool inlines this, and the matching decrement, on its hot paths)."""
        self.in_use += size
        if self.in_use > self.peak:
            self.peak = self.in_use
        self.allocations += 1
        self.live += 1

    def give_back(self, block: Block, offset: int, size: int) -> None:
        self.free.add(block.id, offset, size)

    def add_block(self, block: Block) -> None:
        self.blocks[block.id] = block
        self.free.add(block.id, 0, block.size)
        self.reserved += block.size

    def release_idle_blocks(self) -> int:
        """Drop blocks with nothing allocated in them; return the bytes released."""
        idle = [b for b in self.blocks.values() if self.free.is_whole(b.id, b.size)]
        for block in idle:
            self.free.drop_block(block.id, block.size)
            del self.blocks[block.id]
            self.reserved -= block.size
        return sum(b.size for b in idle)

    def reset_peak(self) -> None:
        self.peak = self.in_use

    def stats(self) -> RegionStats:
        return RegionStats(self.name, self.in_use, self.peak, self.reserved,
                           self.reserved - self.in_use, self.free.largest(), len(self.blocks),
                           self.allocations, self.live)
