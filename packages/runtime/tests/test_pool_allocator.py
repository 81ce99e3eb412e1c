"""A pool whose blocks come from an allocator object (MindSpore's PluggableAllocator)."""
import ctypes
import gc
import weakref

import numpy as np

from sporeling.runtime.memory import MemoryPool


class CountingAllocator:
    """Blocks as ctypes buffers; counts the bytes live."""

    def __init__(self):
        self.live = self.calls = 0

    def allocate(self, nbytes):
        self.calls += 1
        self.live += nbytes
        memory = (ctypes.c_uint8 * nbytes)()
        weakref.finalize(memory, self._freed, nbytes)
        return memory

    def _freed(self, nbytes):
        self.live -= nbytes


def test_blocks_come_from_the_allocator_and_go_back():
    allocator = CountingAllocator()
    pool = MemoryPool(block_size="1MB", max_memory="8MB", allocator=allocator)
    a = pool.allocate((1000,), np.float64)
    a[:] = np.arange(1000)
    assert allocator.calls == 1 and allocator.live >= 2**20
    assert pool.stats().reserved == 2**20 and float(a.sum()) == 999 * 1000 / 2
    del a
    pool.empty_cache()
    gc.collect()
    assert allocator.live == 0
