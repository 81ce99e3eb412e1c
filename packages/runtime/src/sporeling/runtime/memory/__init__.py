"""The memory pool: blocks, persistent and common regions, best fit, statistics.

    >>> import numpy as np
    >>> from sporeling.runtime.memory import MemoryPool
    >>> pool = MemoryPool(block_size="1MB", max_memory="4MB")
    >>> a = pool.allocate((1000,), np.float32)
    >>> pool.stats().in_use              # rounded up to the 64-byte alignment
    4032
"""
from .block import Block
from .buffer import BufferOwner, owner_of
from .default import get_default_pool, set_default_pool
from .extents import FreeExtents
from .options import DEFAULT_BLOCK_SIZE, DEFAULT_MAX_MEMORY, MIN_BLOCK_SIZE
from .pool import POISON_BYTE, MemoryPool
from .stats import PoolStats, RegionStats

__all__ = ["MemoryPool", "PoolStats", "RegionStats", "get_default_pool", "set_default_pool",
           "owner_of", "POISON_BYTE", "MIN_BLOCK_SIZE", "DEFAULT_BLOCK_SIZE",
           "DEFAULT_MAX_MEMORY", "Block", "BufferOwner", "FreeExtents"]
