"""2.10's memory-pool names: max_memory_reserved and its reset, set_memory, MemPool and
use_mem_pool, ms_memory_recycle."""
import numpy as np
import pytest

import sporeling.ms as ms
from sporeling.core import get_context
from sporeling.runtime.memory import get_default_pool


def test_max_memory_reserved_keeps_the_peak_until_reset():
    with ms.use_mem_pool(ms.MemPool()):  # a fresh pool: no blocks other tests left
        assert ms.max_memory_reserved() == ms.memory_reserved() == 0
        big = ms.ops.zeros((1024, 1024), ms.float32) + 1  # 4 MB of pool memory
        grown = ms.memory_reserved()
        assert grown >= 4 * 1024 ** 2 and ms.max_memory_reserved() == grown
        del big
        ms.empty_cache()
        assert ms.max_memory_reserved() == grown
        ms.reset_max_memory_reserved()
        assert ms.max_memory_reserved() == ms.memory_reserved() < grown
        assert ms.memory_stats()["max_reserved_memory"] == ms.max_memory_reserved()


def test_use_mem_pool_puts_new_tensors_in_the_given_pool():
    pool = ms.MemPool()
    before = get_default_pool()
    with ms.use_mem_pool(pool) as used:
        assert used is pool and get_default_pool() is pool._pool
        t = ms.ops.ones((256, 256), ms.float32) * 2
        assert pool.memory_stats()["total_allocated_memory"] >= 256 * 256 * 4
        assert pool.use_count() >= 1
    assert get_default_pool() is before
    assert t.asnumpy()[0, 0] == 2.0
    del t
    assert pool.memory_stats()["total_allocated_memory"] == 0
    with pytest.raises(TypeError, match="MemPool"):
        with ms.use_mem_pool(object()):
            pass


def test_set_memory_sets_the_pool_settings():
    old = get_context("mempool_block_size"), get_context("max_device_memory")
    try:
        ms.set_memory(init_size="1GB", increase_size="1GB", max_size="3GB", optimize_level="O1")
        assert get_context("mempool_block_size") == 1024 ** 3
        assert get_context("max_device_memory") == 3 * 1024 ** 3
        assert ms.get_context("memory_optimize_level") == "O1"
        with pytest.raises(ValueError, match="increase_size"):
            ms.set_memory(increase_size="1TB")
        with pytest.raises(ValueError, match="optimize_level"):
            ms.set_memory(optimize_level="O3")
    finally:
        ms.set_context(mempool_block_size=old[0], max_device_memory=old[1],
                       memory_optimize_level="O0")


def test_ms_memory_recycle_drops_compiled_programs_and_idle_blocks():
    @ms.jit
    def f(x):
        return x * 2 + 1

    x = ms.Tensor(np.ones(4, np.float32))
    f(x)
    f(x)
    assert f.compile_count == 1
    ms.ms_memory_recycle()
    np.testing.assert_allclose(f(x).asnumpy(), 3.0)
    assert f.compile_count == 2  # its program was dropped: compiled again
