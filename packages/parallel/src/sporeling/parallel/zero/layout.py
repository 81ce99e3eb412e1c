"""Which elements of each parameter a rank owns, and the fused buffers the shards travel in.

Parameter ``i`` (``n`` elements, flattened) is cut into ``N`` chunks of ``ceil(n / N)``;
rank ``r`` owns ``[r * chunk, min((r + 1) * chunk, n))`` (possibly empty for tiny
parameters). Parameters of one compute dtype share a buffer of ``sum(chunk)`` elements per
rank, so a step is one reduce-scatter and one all-gather per dtype, whatever the count.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["ShardLayout"]


@dataclass(frozen=True)
class _Slot:
    index: int      # the parameter's position in the optimizer
    size: int       # its elements
    chunk: int      # elements per rank (the last ranks may own fewer, or none)
    offset: int     # where its chunk sits in its dtype's per-rank buffer


class ShardLayout:
    """The chunking of ``sizes`` (elements per parameter) over ``ranks`` ranks."""

    def __init__(self, sizes: list[int], dtypes: list[np.dtype], ranks: int, rank: int):
        self.ranks, self.rank = ranks, rank
        self.groups: dict[np.dtype, list[_Slot]] = {}
        self.width: dict[np.dtype, int] = {}
        for i, (n, dt) in enumerate(zip(sizes, dtypes)):
            chunk = -(-n // ranks)
            at = self.width.get(dt, 0)
            self.groups.setdefault(dt, []).append(_Slot(i, n, chunk, at))
            self.width[dt] = at + chunk

    def bounds(self, slot: _Slot, rank: int | None = None) -> tuple[int, int]:
        """The ``[lo, hi)`` elements of the parameter that ``rank`` (default: this) owns."""
        r = self.rank if rank is None else rank
        lo = min(r * slot.chunk, slot.size)
        return lo, min(lo + slot.chunk, slot.size)

    def pack_all(self, dt, flats: dict[int, np.ndarray]) -> np.ndarray:
        """``(ranks, width)``: row ``r`` holds rank ``r``'s chunk of each flat parameter."""
        buf = np.zeros((self.ranks, self.width[dt]), dt)
        for slot in self.groups[dt]:
            flat = flats[slot.index]
            for r in range(self.ranks):
                lo, hi = self.bounds(slot, r)
                buf[r, slot.offset:slot.offset + hi - lo] = flat[lo:hi]
        return buf

    def unpack(self, dt, gathered: np.ndarray, slot: _Slot) -> np.ndarray:
        """The whole flat parameter from the gathered ``(ranks, width)`` chunks."""
        parts = []
        for r in range(self.ranks):
            lo, hi = self.bounds(slot, r)
            parts.append(gathered[r, slot.offset:slot.offset + hi - lo])
        return np.concatenate(parts)
