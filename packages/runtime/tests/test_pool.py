"""The allocator: regions, fallback, growth, cap, statistics."""
import numpy as np
import pytest

from sporeling.core import OutOfMemoryError, SizeError
from sporeling.runtime import MemoryPool, PoolError
from sporeling.runtime.memory import owner_of

from runtime_helpers import KB, MB


def nbytes_pool(**kw):
    return MemoryPool(block_size="1MB", **kw)


def block_of(pool, array):
    """(region name, block id) the array lives in."""
    extent = owner_of(array).extent
    return extent.region.name, extent.block.id


def test_buffers_are_aligned_and_sizes_rounded_up():
    pool = nbytes_pool()
    arrays = [pool.allocate((n,), np.uint8) for n in (1, 63, 64, 65, 1000)]
    assert all(a.ctypes.data % 64 == 0 for a in arrays)
    assert pool.stats().in_use == 64 + 64 + 64 + 128 + 1024


def test_array_has_the_requested_shape_and_dtype():
    import ml_dtypes
    pool = nbytes_pool()
    a = pool.allocate((2, 3, 4), ml_dtypes.bfloat16)
    assert a.shape == (2, 3, 4) and a.dtype == ml_dtypes.bfloat16 and a.flags.c_contiguous
    a[...] = 1.5
    assert float(a.sum()) == 36.0
    empty = pool.allocate((0, 5), np.float32)
    assert empty.shape == (0, 5) and pool.stats().live == 2


def test_regions_are_kept_apart():
    pool = nbytes_pool()
    w = pool.allocate((100 * KB,), np.uint8, persistent=True)
    x = pool.allocate((100 * KB,), np.uint8)
    assert block_of(pool, w)[0] == "persistent" and block_of(pool, x)[0] == "common"
    assert block_of(pool, w)[1] != block_of(pool, x)[1]
    s = pool.stats()
    assert s.regions["persistent"].in_use == 100 * KB == s.regions["common"].in_use
    assert s.regions["persistent"].blocks == 1 == s.regions["common"].blocks
    assert s.fallbacks == 0


def test_common_requests_never_use_persistent_memory():
    pool = nbytes_pool()
    pool.allocate((10,), np.uint8, persistent=True)     # persistent block, mostly free
    x = pool.allocate((10,), np.uint8)
    assert block_of(pool, x)[0] == "common"
    assert pool.stats().reserved == 2 * MB


def test_persistent_request_falls_back_to_common_free_extents():
    pool = nbytes_pool()
    w1 = pool.allocate((700 * KB,), np.uint8, persistent=True)   # persistent: 324 KB left
    x = pool.allocate((100 * KB,), np.uint8)                      # common: 924 KB left
    w2 = pool.allocate((400 * KB,), np.uint8, persistent=True)   # no room in persistent
    assert block_of(pool, w2)[0] == "common"
    s = pool.stats()
    assert s.fallbacks == 1 and s.reserved == 2 * MB              # no new block
    assert s.regions["common"].in_use == 500 * KB and s.regions["common"].live == 2
    del w1, x, w2


def test_first_persistent_request_opens_a_persistent_block():
    # MindSpore falls back only once the persistent pool has a block
    pool = nbytes_pool()
    x = pool.allocate((10 * KB,), np.uint8)
    w = pool.allocate((10 * KB,), np.uint8, persistent=True)
    assert block_of(pool, w)[0] == "persistent" and pool.stats().fallbacks == 0
    del x, w


def test_pool_grows_a_block_at_a_time():
    pool = nbytes_pool()
    arrays = [pool.allocate((600 * KB,), np.uint8) for _ in range(3)]
    s = pool.stats()
    assert s.blocks == 3 and s.reserved == 3 * MB
    arrays.append(pool.allocate((300 * KB,), np.uint8))            # fits a 424 KB hole
    assert pool.stats().blocks == 3


def test_request_larger_than_a_block_gets_its_own_block_rounded_up():
    pool = nbytes_pool()
    big = pool.allocate((2 * MB + 5,), np.uint8)
    s = pool.stats()
    assert s.blocks == 1 and s.reserved == 3 * MB                  # rounded to 1 MB
    small = pool.allocate((100,), np.uint8)                        # leftover is usable
    assert block_of(pool, small) == block_of(pool, big)


def test_out_of_memory_reports_the_figures():
    pool = MemoryPool(block_size="1MB", max_memory="2MB", name="tiny")
    keep = [pool.allocate((700 * KB,), np.uint8) for _ in range(2)]
    with pytest.raises(OutOfMemoryError) as info:
        pool.allocate((700 * KB,), np.uint8)
    message = str(info.value)
    for figure in ("requested 700.00 KB", "in use 1.37 MB", "peak 1.37 MB",
                   "reserved 2.00 MB", "cap 2.00 MB", "fragmentation 50.0%",
                   "largest free extent 324.00 KB", "'tiny'"):
        assert figure in message
    assert isinstance(info.value, MemoryError)
    assert info.value.requested == 700 * KB and info.value.stats.in_use == 1400 * KB
    assert pool.stats().live == 2                                  # nothing leaked
    del keep


def test_last_block_shrinks_to_what_the_cap_leaves():
    pool = MemoryPool(block_size="1MB", max_memory=1536 * KB)
    a = pool.allocate((700 * KB,), np.uint8)
    b = pool.allocate((500 * KB,), np.uint8)
    assert pool.stats().reserved == 1536 * KB
    with pytest.raises(OutOfMemoryError):
        pool.allocate((400 * KB,), np.uint8)
    del a, b


def test_statistics_in_use_peak_fragmentation():
    pool = nbytes_pool()
    a, b, c = (pool.allocate((256 * KB,), np.uint8) for _ in range(3))
    assert pool.stats().peak == 768 * KB
    del b                                   # a hole of 256 KB + the 256 KB tail
    s = pool.stats()
    assert s.in_use == 512 * KB and s.peak == 768 * KB
    assert s.largest_free == 256 * KB and s.fragmentation == pytest.approx(0.5)
    del c                                   # hole, c and tail coalesce
    s = pool.stats()
    assert s.largest_free == 768 * KB and s.fragmentation == 0.0
    pool.reset_peak()
    assert pool.stats().peak == 256 * KB
    assert pool.stats().regions["common"].peak == 256 * KB
    assert pool.stats().allocations == 3 and pool.stats().live == 1
    del a
    assert pool.fragmentation() == 0.0


def test_fragmentation_is_zero_when_nothing_is_free():
    pool = nbytes_pool()
    assert pool.fragmentation() == 0.0
    a = pool.allocate((MB,), np.uint8)
    assert pool.stats().free == 0 and pool.fragmentation() == 0.0
    del a


def test_summary_is_readable():
    pool = nbytes_pool(name="demo")
    w = pool.allocate((1000,), np.float32, persistent=True)
    text = pool.summary()
    assert "'demo'" in text and "persistent" in text and "common" in text
    assert "3.94 KB" in text and "1.00 MB" in text
    del w


def test_empty_cache_releases_idle_blocks():
    pool = nbytes_pool()
    a = pool.allocate((600 * KB,), np.uint8)
    b = pool.allocate((600 * KB,), np.uint8)
    del b
    assert pool.empty_cache() == MB
    assert pool.stats().reserved == MB and pool.stats().blocks == 1
    del a


def test_bad_constructor_arguments():
    with pytest.raises(SizeError):
        MemoryPool(block_size="1XB")
    with pytest.raises(ValueError, match="smaller than"):
        MemoryPool(block_size="4KB")
    with pytest.raises(PoolError, match="power of two"):
        MemoryPool(alignment=48)


@pytest.mark.parametrize("shape", [(-3,), (-1, -1), (2, -4, -5)])
def test_a_negative_shape_is_refused_and_the_pool_stays_whole(shape):
    """(-3,) made a zero-byte extent and (-1, -1) an extent NumPy then refused: either
    corrupted the free lists (a KeyError several allocations later)."""
    pool = MemoryPool(block_size="1MB")
    keep = [pool.allocate((32,), np.float32) for _ in range(3)]
    with pytest.raises((PoolError, ValueError)):
        pool.allocate(shape, np.float32)
    assert pool.stats().in_use == 3 * 128
    del keep
    arrays = [pool.allocate((32,), np.float32) for _ in range(8)]
    assert len({a.ctypes.data for a in arrays}) == 8


def test_an_owner_numpy_copied_dies_quietly(recwarn):
    """copy.copy of a buffer's owner makes an owner with no extent: its __del__ must not
    raise (it printed "Exception ignored ... no attribute 'extent'")."""
    import copy
    import gc
    import sys
    pool = MemoryPool(block_size="1MB")
    a = pool.allocate((4,), np.float32)
    errors = []
    hook, sys.unraisablehook = sys.unraisablehook, errors.append
    try:
        c = copy.copy(owner_of(a))
        del c
        gc.collect()
    finally:
        sys.unraisablehook = hook
    assert errors == [] and pool.stats().in_use == 64


def test_peak_reserved_follows_growth_and_resets_to_what_is_held():
    pool = nbytes_pool()
    a = pool.allocate((300 * KB,), np.uint8)
    b = pool.allocate((2 * MB,), np.uint8)  # a block of its own
    grown = pool.stats().reserved
    assert pool.stats().peak_reserved == grown > 2 * MB
    del b
    pool.empty_cache()
    assert pool.stats().reserved < grown and pool.stats().peak_reserved == grown
    pool.reset_peak_reserved()
    assert pool.stats().peak_reserved == pool.stats().reserved > 0
    del a
