"""The process-wide pool the CPU backend allocates from.

It follows the context keys (``mempool_block_size``, ``max_device_memory``,
``mempool_poison``) each time it grows or frees, so ``set_context`` affects the next block.

    >>> get_default_pool() is get_default_pool()
    True
"""
from __future__ import annotations

import threading

from .pool import _FOLLOWERS, MemoryPool

__all__ = ["get_default_pool", "set_default_pool"]

_pool: MemoryPool | None = None
_lock = threading.Lock()


def get_default_pool() -> MemoryPool:
    """The process-wide pool, created on first use."""
    global _pool
    pool = _pool
    if pool is not None:  # every kernel asks: no lock once it exists
        return pool
    with _lock:
        if _pool is None:
            _pool = MemoryPool(name="default")
        return _pool


def set_default_pool(pool: MemoryPool | None) -> MemoryPool | None:
    """Replace the process-wide pool (tests); ``None`` makes a fresh one on next use.
    Returns the previous pool; its live buffers stay valid, but ``set_context(
    max_device_memory=...)`` no longer checks a lower cap against it (it is out of service)."""
    global _pool
    with _lock:
        old, _pool = _pool, pool
        if old is not None and old is not pool:
            _FOLLOWERS.discard(old)
        if pool is not None and pool._max_memory is None:
            _FOLLOWERS.add(pool)
        return old
