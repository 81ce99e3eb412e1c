"""Free extents of one pool region: best fit by size, coalescing by address.

Two views of the same set of free extents ``(block, offset, size)``:

* a list sorted by ``(size, block, offset)`` -- ``bisect`` finds the tightest extent that
  fits in O(log n), ties going to the lowest block and offset (deterministic placement);
* two dicts keyed by ``(block, start)`` and ``(block, end)`` -- a freed extent finds its free
  neighbours in O(1) and merges with them, so two adjacent free extents never coexist.

    >>> free = FreeExtents()
    >>> free.add(0, 0, 1024)
    >>> free.take(256)            # best fit splits the leftover
    (0, 0)
    >>> free.largest(), free.total
    (768, 768)
    >>> free.add(0, 0, 256)       # coalesces with [256, 1024)
    >>> free.largest(), len(free)
    (1024, 1)
"""
from __future__ import annotations

from bisect import bisect_left, insort

__all__ = ["FreeExtents"]


class FreeExtents:
    """A set of free extents supporting best-fit take and coalescing add."""

    def __init__(self) -> None:
        self._by_size: list[tuple[int, int, int]] = []  # (size, block, offset)
        self._by_start: dict[tuple[int, int], int] = {}  # (block, offset) -> size
        self._by_end: dict[tuple[int, int], int] = {}    # (block, offset + size) -> offset
        self.total = 0

    def __len__(self) -> int:
        return len(self._by_size)

    def __iter__(self):
        """``(block, offset, size)`` of each free extent, smallest first."""
        return ((b, o, s) for s, b, o in self._by_size)

    def largest(self) -> int:
        return self._by_size[-1][0] if self._by_size else 0

    def take(self, size: int) -> tuple[int, int] | None:
        """Remove the tightest extent of at least ``size`` bytes, give back the leftover.

        Returns ``(block, offset)`` of the taken bytes, or ``None`` when nothing fits.
        """
        i = bisect_left(self._by_size, (size,))
        if i == len(self._by_size):
            return None
        esize, block, offset = self._by_size[i]
        self._unlink(i, esize, block, offset)
        if esize > size:
            # The leftover's right neighbour cannot be free (it would have been merged into
            # this extent), so it is inserted without a coalescing check.
            self._link(block, offset + size, esize - size)
        return block, offset

    def add(self, block: int, offset: int, size: int) -> None:
        """Return ``[offset, offset + size)`` of ``block``, merging with free neighbours."""
        before = self._by_end.get((block, offset))
        if before is not None:
            bsize = offset - before
            self._unlink(self._index(bsize, block, before), bsize, block, before)
            offset, size = before, size + bsize
        after = self._by_start.get((block, offset + size))
        if after is not None:
            self._unlink(self._index(after, block, offset + size), after, block, offset + size)
            size += after
        self._link(block, offset, size)

    def is_whole(self, block: int, size: int) -> bool:
        """Whether all ``size`` bytes of ``block`` are one free extent (the block is idle)."""
        return self._by_start.get((block, 0)) == size

    def drop_block(self, block: int, size: int) -> None:
        """Forget an idle block's single extent (the block is being released)."""
        self._unlink(self._index(size, block, 0), size, block, 0)

    def _index(self, size: int, block: int, offset: int) -> int:
        return bisect_left(self._by_size, (size, block, offset))

    def _link(self, block: int, offset: int, size: int) -> None:
        insort(self._by_size, (size, block, offset))
        self._by_start[(block, offset)] = size
        self._by_end[(block, offset + size)] = offset
        self.total += size

    def _unlink(self, index: int, size: int, block: int, offset: int) -> None:
        del self._by_size[index]
        del self._by_start[(block, offset)]
        del self._by_end[(block, offset + size)]
        self.total -= size
