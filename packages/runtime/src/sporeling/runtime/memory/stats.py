"""Snapshots of a pool's counters, and the readable summary."""
from __future__ import annotations

from dataclasses import dataclass, field

from sporeling.core import format_size

__all__ = ["RegionStats", "PoolStats", "fragmentation"]


def fragmentation(largest_free: int, total_free: int) -> float:
    """``1 - largest free extent / total free``: 0 when free memory is one piece (or none)."""
    return 0.0 if total_free == 0 else 1.0 - largest_free / total_free


@dataclass(frozen=True)
class RegionStats:
    """Counters of one region (or of the whole pool). Byte counts are aligned extent sizes.

    ``in_use``: bytes held by live buffers; ``peak``: highest ``in_use`` since creation or
    :meth:`MemoryPool.reset_peak`; ``reserved``: bytes of blocks; ``free``: ``reserved -
    in_use``; ``allocations``: buffers served so far; ``live``: buffers alive now.
    """
    name: str
    in_use: int
    peak: int
    reserved: int
    free: int
    largest_free: int
    blocks: int
    allocations: int
    live: int

    @property
    def fragmentation(self) -> float:
        return fragmentation(self.largest_free, self.free)

    def row(self) -> str:
        return (f"{self.name:<11}{format_size(self.in_use):>12}{format_size(self.peak):>12}"
                f"{format_size(self.reserved):>12}{self.blocks:>7}{self.live:>7}"
                f"{self.allocations:>9}{self.fragmentation:>7.1%}")


@dataclass(frozen=True)
class PoolStats(RegionStats):
    """The whole pool: overall counters plus ``regions`` (``"persistent"``, ``"common"``).

    ``fallbacks`` counts persistent requests served from the common region's free extents;
    ``block_size`` is the size in effect (the configured one, at most half the cap).
    The overall ``peak`` is the highest total, not the sum of the regions' peaks;
    ``peak_reserved`` is the highest ``reserved`` since creation or
    :meth:`MemoryPool.reset_peak_reserved`.
    """
    regions: dict[str, RegionStats] = field(default_factory=dict)
    fallbacks: int = 0
    block_size: int = 0
    cap: int = 0
    peak_reserved: int = 0

    def summary(self) -> str:
        head = (f"{'region':<11}{'in use':>12}{'peak':>12}{'reserved':>12}{'blocks':>7}"
                f"{'live':>7}{'allocs':>9}{'frag':>7}")
        lines = [f"memory pool {self.name!r}: blocks of {format_size(self.block_size)}, "
                 f"cap {format_size(self.cap)}", head, "-" * len(head)]
        lines += [r.row() for r in self.regions.values()]
        lines += ["-" * len(head), self.row(),
                  f"persistent requests served from common: {self.fallbacks}"]
        return "\n".join(lines)
