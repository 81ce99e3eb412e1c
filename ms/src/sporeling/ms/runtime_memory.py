"""MindSpore 2.10's memory-pool queries (``ms.memory_allocated``, ``ms.memory_summary``, ...)
answered by Sporeling's host memory pool (``sporeling.runtime.memory.get_default_pool()``,
the pool the CPU backend takes every tensor's memory from).

MindSpore's CPU backend reports 0 allocated bytes; here the figures are the pool's own:
``allocated`` is what live tensors hold, ``reserved`` the blocks the pool took from the
system, ``max_allocated`` / ``max_reserved`` their peaks since the last reset.

``set_memory`` sets the pool's settings (the block it grows by, its cap); ``MemPool`` is a
pool of its own, which ``use_mem_pool`` makes the one new tensors take memory from.
"""
from __future__ import annotations

import contextlib
import re

from sporeling.runtime.memory import MemoryPool, get_default_pool, set_default_pool

__all__ = ["memory_allocated", "max_memory_allocated", "memory_reserved", "memory_stats",
           "memory_summary", "reset_peak_memory_stats", "reset_max_memory_allocated",
           "empty_cache", "max_memory_reserved", "reset_max_memory_reserved", "set_memory",
           "ms_memory_recycle", "MemPool", "use_mem_pool"]


def memory_stats() -> dict:
    """The pool's counters under MindSpore's keys (bytes), plus its block and buffer
    counts: ``total_reserved_memory``, ``total_allocated_memory``, ``total_idle_memory``
    (reserved and free), ``max_allocated_memory``, ``max_reserved_memory``,
    ``largest_idle_block``, ``blocks``,
    ``live_buffers``, ``allocations``."""
    s = get_default_pool().stats()
    return {"total_reserved_memory": s.reserved, "total_allocated_memory": s.in_use,
            "total_idle_memory": s.free, "max_allocated_memory": s.peak,
            "max_reserved_memory": s.peak_reserved,
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


def max_memory_reserved() -> int:
    """The most bytes of blocks the pool held at once since the start or the last reset."""
    return memory_stats()["max_reserved_memory"]


def reset_max_memory_reserved() -> None:
    """Start ``max_memory_reserved`` again from what the pool holds now."""
    get_default_pool().reset_peak_reserved()


def reset_peak_memory_stats() -> None:
    """Start both peaks (``max_memory_allocated``, ``max_memory_reserved``) again."""
    pool = get_default_pool()
    pool.reset_peak()
    pool.reset_peak_reserved()


def reset_max_memory_allocated() -> None:
    """As :func:`reset_peak_memory_stats` (the pool's one peak)."""
    get_default_pool().reset_peak()


def empty_cache() -> None:
    """Give the blocks no tensor uses back to the system."""
    get_default_pool().empty_cache()


def ms_memory_recycle() -> None:
    """Give back the memory kept for models trained before: the compiled programs'
    caches are cleared (their buffers freed) and idle pool blocks returned."""
    import gc
    from sporeling.expression.graph.cache import CompiledFunction
    for obj in gc.get_objects():  # no registry of them: a rare call, a full look is fine
        if issubclass(type(obj), CompiledFunction):  # type(): no proxy's __class__ runs
            obj.clear()
    gc.collect()
    get_default_pool().empty_cache()


_SIZE = re.compile(r"^(\d+(\.\d*)?|0?\.\d+)GB$")
_memory_settings = {"init_size": "2GB", "increase_size": "2GB", "max_size": "1024GB",
                    "optimize_level": "O0", "huge_page_reserve_size": "0GB"}


def _gb(name: str, value) -> str:
    if not isinstance(value, str) or not _SIZE.match(value):
        raise ValueError(f"For 'set_memory', '{name}' must be a str like '2GB', but got "
                         f"{value!r}.")
    return value


def set_memory(init_size="2GB", increase_size="2GB", max_size="1024GB", optimize_level="O0",
               huge_page_reserve_size="0GB") -> None:
    """MindSpore's pool settings: ``increase_size`` is the block the pool grows by
    (``mempool_block_size``), ``max_size`` its cap (``max_device_memory``, at most the
    machine's memory); ``optimize_level`` (``"O0"``/``"O1"``) is ``memory_optimize_level``.
    ``init_size`` and ``huge_page_reserve_size`` are checked and kept: the pool opens its
    first block on first use, and asks for no huge pages."""
    from .context import set_context
    sizes = {name: _gb(name, value) for name, value in (
        ("init_size", init_size), ("increase_size", increase_size), ("max_size", max_size),
        ("huge_page_reserve_size", huge_page_reserve_size))}
    if optimize_level not in ("O0", "O1"):
        raise ValueError(f"For 'set_memory', 'optimize_level' must be 'O0' or 'O1', but got "
                         f"{optimize_level!r}.")
    set_context(mempool_block_size=increase_size, max_device_memory=max_size,
                memory_optimize_level=optimize_level)
    _memory_settings.update(sizes, optimize_level=optimize_level)


class MemPool:
    """A memory pool of its own (MindSpore's ``MemPool``): tensors made inside
    ``use_mem_pool(pool)`` take their memory from it; ``memory_stats()`` gives its figures.
    ``allocator``: a ``PluggableAllocator`` the pool takes its blocks from (None: the
    system, as anonymous memory maps)."""

    def __init__(self, allocator=None):
        from .pluggable_allocator import PluggableAllocator
        if allocator is not None and not isinstance(allocator, PluggableAllocator):
            raise TypeError(f"MemPool: 'allocator' must be a PluggableAllocator or None, but "
                            f"got {type(allocator).__name__}")
        self.allocator = allocator
        self._pool = MemoryPool(name=f"MemPool-{id(self):x}", allocator=allocator)

    @property
    def id(self) -> int:
        return id(self._pool)

    def memory_stats(self) -> dict:
        """This pool's figures, under ``ms.memory_stats``'s keys."""
        s = self._pool.stats()
        return {"total_reserved_memory": s.reserved, "total_allocated_memory": s.in_use,
                "total_idle_memory": s.free, "max_allocated_memory": s.peak,
                "max_reserved_memory": s.peak_reserved}

    def use_count(self) -> int:
        """The tensors living in this pool."""
        return self._pool.stats().live


@contextlib.contextmanager
def use_mem_pool(pool):
    """``with use_mem_pool(pool):`` new tensors take their memory from ``pool`` (a
    ``MemPool``); those made before keep theirs. The previous pool is back after. The
    switch is process-wide: other threads' tensors go to ``pool`` meanwhile too."""
    if not isinstance(pool, MemPool):
        raise TypeError(f"For 'use_mem_pool', 'pool' must be a MemPool, but got "
                        f"{type(pool).__name__}.")
    before = get_default_pool()
    set_default_pool(pool._pool)
    try:
        yield pool
    finally:
        set_default_pool(before)


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
