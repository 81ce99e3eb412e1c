"""Which elements of each parameter a rank owns, and the fused buffers the shards travel in.

Parameter ``i`` (``n`` elements, flattened) is cut into ``N`` chunks of ``ceil(n / N)``;
rank ``r`` owns ``[r * chunk, min((r + 1) * chunk, n))`` (possibly empty for tiny
parameters). The parameters stepped together (those with a gradient) of one compute dtype
share a buffer of ``sum(chunk)`` elements per rank, so a step is one reduce-scatter and one
all-gather per dtype, whatever the count; parameters without a gradient (another pipeline
stage's, say) do not travel.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["ShardLayout", "Slot"]


@dataclass(frozen=True)
class Slot:
    index: int      # the parameter's position in the optimizer
    size: int       # its elements
    chunk: int      # elements per rank (the last ranks may own fewer, or none)


class ShardLayout:
    """The chunking of ``sizes`` (elements per parameter) over ``ranks`` ranks."""

    def __init__(self, sizes: list[int], dtypes: list[np.dtype], ranks: int, rank: int):
        self.ranks, self.rank = ranks, rank
        self.slots = [Slot(i, n, -(-n // ranks)) for i, n in enumerate(sizes)]
        self.dtypes = list(dtypes)

    def bounds(self, slot: Slot, rank: int | None = None) -> tuple[int, int]:
        """The ``[lo, hi)`` elements of the parameter that ``rank`` (default: this) owns."""
        r = self.rank if rank is None else rank
        lo = min(r * slot.chunk, slot.size)
        return lo, min(lo + slot.chunk, slot.size)

    def arrange(self, active) -> dict:
        """``{dtype: ([(slot, offset), ...], width)}`` for the parameters in ``active``:
        where each one's chunk sits in its dtype's per-rank buffer."""
        out: dict = {}
        for slot in self.slots:
            if slot.index in active:
                entries, width = out.get(self.dtypes[slot.index], ([], 0))
                entries.append((slot, width))
                out[self.dtypes[slot.index]] = (entries, width + slot.chunk)
        return out

    def pack_all(self, dt, entries, width: int, flats: dict[int, np.ndarray]) -> np.ndarray:
        """``(ranks, width)``: row ``r`` holds rank ``r``'s chunk of each flat parameter."""
        buf = np.zeros((self.ranks, width), dt)
        for slot, offset in entries:
            flat = flats[slot.index]
            for r in range(self.ranks):
                lo, hi = self.bounds(slot, r)
                buf[r, offset:offset + hi - lo] = flat[lo:hi]
        return buf

    def unpack(self, gathered: np.ndarray, slot: Slot, offset: int) -> np.ndarray:
        """The whole flat parameter from the gathered ``(ranks, width)`` chunks."""
        parts = []
        for r in range(self.ranks):
            lo, hi = self.bounds(slot, r)
            parts.append(gathered[r, offset:offset + hi - lo])
        return np.concatenate(parts)
