"""MindSpore 2.10's memory-pool queries (``ms.memory_allocated``, ``ms.memory_summary``, ...)
answered by Sporeling's host memory pool (``sporeling.runtime.memory.get_default_pool()``,
the pool the CPU backend takes every tensor's memory from).

MindSpore's CPU backend reports 0 allocated bytes; here the figures are the pool's own:
``allocated`` is what live tensors hold, ``reserved`` the blocks the pool took from the
system, ``max_allocated`` the peak of ``allocated`` since the last reset. The pool does not
track a peak of ``reserved``, so ``max_memory_reserved`` is not offered.
"""
from __future__ import annotations

from sporeling.runtime.memory import get_default_pool

__all__ = ["memory_allocated", "max_memory_allocated", "memory_reserved", "memory_stats",
           "memory_summary", "reset_peak_memory_stats", "reset_max_memory_allocated",
           "empty_cache"]


def memory_stats() -> dict:
    """The pool's counters under MindSpore's keys (bytes), plus its block and buffer
    counts: ``total_reserved_memory``, ``total_allocated_memory``, ``total_idle_memory``
    (reserved and free), ``max_allocated_memory``, ``largest_idle_block``, ``blocks``,
    ``live_buffers``, ``allocations``."""
    s = get_default_pool().stats()
    return {"total_reserved_memory": s.reserved, "total_allocated_memory": s.in_use,
            "total_idle_memory": s.free, "max_allocated_memory": s.peak,
            "largest_idle_block": s.largest_free, "blocks": s.blocks,
            "live_buffers": s.live, "allocations": s.allocations}


def memory_allocated() -> int:
    """Bytes that live tensors hold in the pool."""
    return memory_stats()["total_allocated_memory"]


def max_memory_allocated() -> int:
    """The most bytes tensors held at once since the start or the last reset."""
    return memory_stats()["max_allocated_memory"]


def memory_reserved() -> int:
    """Bytes of the blocks the pool holds (in use or idle)."""
    return memory_stats()["total_reserved_memory"]


def reset_peak_memory_stats() -> None:
    """Start the peak (``max_memory_allocated``) again from the current use."""
    get_default_pool().reset_peak()


def reset_max_memory_allocated() -> None:
    """As :func:`reset_peak_memory_stats` (the pool's one peak)."""
    get_default_pool().reset_peak()


def empty_cache() -> None:
    """Give the blocks no tensor uses back to the system."""
    get_default_pool().empty_cache()


def _format_size(size: int) -> str:
    """MindSpore's format: the count in the largest unit under 768 of the next, 6 wide."""
    prefix, scaled = "B  ", float(size)
    for new_prefix in ("KB", "MB", "GB", "TB", "PB"):
        if scaled < 768 * 1024:
            break
        prefix, size, scaled = new_prefix, size // 1024, scaled / 1024
    return f"{size:6d} {prefix}"


def memory_summary() -> str:
    """The pool's figures as MindSpore's table (``|``-framed lines, 45 wide)."""
    stats = memory_stats()
    rows = [("total_reserved_memory", "Reserved memory"),
            ("total_allocated_memory", "Allocated memory"),
            ("total_idle_memory", "Idle memory"),
            ("max_allocated_memory", "Max allocated memory")]
    lines = ["=" * 45, " {:^43} ".format("Memory summary"), "=" * 45,
             " {:<20} | {:<20} ".format("Metric", "Data")]
    for key, name in rows:
        lines += ["-" * 45, " {:<20} | {:<20} ".format(name, _format_size(stats[key]))]
    lines.append("=" * 45)
    return "|" + "|\n|".join(lines) + "|\n"
