"""The small-buffer fast path: frees queued by the owner's ``__del__`` and the hand-off of
the last freed extent to the next request of its size. The statistics must be those of a
pool that accounted every free at once, poison must still be written at the free, and a
profiler must still see each free when it happens."""
import threading

import numpy as np

from sporeling.core import context
from sporeling.runtime import MemoryPool
from sporeling.runtime.events import add_memory_listener, remove_memory_listener
from sporeling.runtime.memory import POISON_BYTE, owner_of


def pool(**kw):
    return MemoryPool(block_size="1MB", **kw)


def bytes_at(extent):
    """The pool memory of ``extent``, read without holding its buffer alive."""
    return extent.block.data[extent.offset:extent.offset + extent.size]


def test_a_recycled_small_buffer_is_accounted_like_any_other():
    p = pool()
    a = p.allocate((8,), np.float32)
    extent, address = owner_of(a).extent, a.ctypes.data
    del a                                        # queued, not yet accounted
    b = p.allocate((8,), np.float32)             # takes it straight back
    assert b.ctypes.data == address and owner_of(b).extent is extent
    s = p.stats()
    assert (s.in_use, s.peak, s.live, s.allocations) == (64, 64, 1, 2)
    assert s.regions["common"].in_use == 64 and s.regions["common"].live == 1
    del b
    s = p.stats()                                # a read accounts the queued free
    assert (s.in_use, s.live, s.allocations) == (0, 0, 2) and s.free == s.reserved


def test_peak_stays_exact_through_hand_offs():
    p = pool()
    a = p.allocate((8,), np.float32)             # 64 B
    c = p.allocate((1000,), np.float32)          # 4032 B
    del a
    b = p.allocate((8,), np.float32)             # hand-off: in use back to 4096
    assert p.stats().peak == 4096
    del c
    d = p.allocate((8,), np.float32)             # the freed 4032 B extent is not 64 B
    s = p.stats()
    assert (s.in_use, s.peak, s.live) == (128, 4096, 2)
    p.reset_peak()
    del b, d
    assert p.stats().peak == 128 and p.stats().in_use == 0


def test_a_request_of_another_size_or_region_does_not_take_the_freed_extent():
    p = pool()
    a = p.allocate((8,), np.float32)
    a_extent = owner_of(a).extent
    del a
    w = p.allocate((8,), np.float32, persistent=True)     # same size, other region
    assert owner_of(w).extent.region.name == "persistent"
    assert owner_of(w).extent is not a_extent
    s = p.stats()
    assert s.regions["common"].in_use == 0 and s.regions["persistent"].in_use == 64
    b = p.allocate((8,), np.float32)
    b_extent = owner_of(b).extent
    del b
    x = p.allocate((32,), np.float32)       # 128 B: a miss the free extents serve, so
    s = p.stats()                           # the freed 64 B stays cached for its size
    assert (s.in_use, s.live, s.regions["common"].in_use) == (192, 2, 128)
    assert owner_of(x).extent.offset != b_extent.offset
    y = p.allocate((8,), np.float32)
    assert owner_of(y).extent.offset == b_extent.offset and p.stats().in_use == 256


def test_a_miss_coalesces_the_cached_extents_before_growing():
    """The cached extents go back to the free extents (merged) only when those cannot
    serve a request: then no new block is opened where the cached ones would do."""
    p = pool()
    a, b = p.allocate((1 << 17,), np.float32), p.allocate((1 << 17,), np.float32)
    del a, b                                # the whole 1 MiB block, cached in two halves
    c = p.allocate((1 << 18,), np.float32)  # 1 MiB: a miss the free extents cannot serve
    s = p.stats()
    assert (s.blocks, s.in_use) == (1, 1 << 20) and owner_of(c).extent.offset == 0


def test_poison_is_written_when_the_last_view_dies():
    p = pool(poison=True)
    a = p.allocate((16,), np.float32)
    a[...] = 1.0
    extent = owner_of(a).extent
    del a                                        # the __del__ path, no explicit free
    assert (bytes_at(extent) == POISON_BYTE).all()


def test_poison_turned_on_in_the_context_applies_to_the_next_free():
    p = pool()                                   # follows mempool_poison
    a = p.allocate((16,), np.float32)
    del a                                        # poison off: a queued free
    b = p.allocate((16,), np.float32)
    b[...] = 2.0
    extent = owner_of(b).extent
    with context(mempool_poison=True):
        del b
        assert (bytes_at(extent) == POISON_BYTE).all()
    c = p.allocate((16,), np.float32)
    c[...] = 3.0
    extent = owner_of(c).extent
    del c                                        # off again: left as it was
    assert (bytes_at(extent).view(np.float32) == 3.0).all()
    assert p.stats().in_use == 0


def test_a_memory_listener_sees_each_free_when_it_happens():
    p = pool()
    events = []

    def listen(pool_, delta, in_use, peak):
        if pool_ is p:
            events.append((delta, in_use))
    add_memory_listener(listen)
    try:
        a = p.allocate((8,), np.float32)
        del a
        assert events == [(64, 64), (-64, 0)]
        b = p.allocate((8,), np.float32)
        assert events[-1] == (64, 64)
        del b
    finally:
        remove_memory_listener(listen)
    a = p.allocate((8,), np.float32)             # a free queued while nobody listened
    del a
    add_memory_listener(listen)
    try:
        events.clear()
        b = p.allocate((8,), np.float32)         # the hand-off reports both
        assert events == [(-64, 0), (64, 64)]
        del b
    finally:
        remove_memory_listener(listen)


def test_threads_freeing_one_buffer_return_it_once():
    p = pool()
    for _ in range(20):
        arrays = [p.allocate((8,), np.float32) for _ in range(50)]
        start = threading.Barrier(4)

        def free_all():
            start.wait()
            for a in arrays:
                p.free(a)
        threads = [threading.Thread(target=free_all) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        s = p.stats()
        assert s.in_use == 0 and s.live == 0
        arrays.clear()                           # the owners die now
        assert p.stats().in_use == 0
        fresh = [p.allocate((8,), np.float32) for _ in range(50)]
        assert len({f.ctypes.data for f in fresh}) == 50      # no extent handed out twice
        del fresh


def test_the_pool_reads_cores_live_context_version():
    # the pool (and the eager interpreter) subscript core's version list instead of calling
    # context_version(): it must be the list that call reads
    from sporeling.core import context_version
    from sporeling.runtime.memory import buffer, pool as pool_module
    before = context_version()
    with context(mempool_poison=False):
        assert pool_module._CONTEXT_VERSION[0] == context_version() != before
        assert buffer._CONTEXT_VERSION is pool_module._CONTEXT_VERSION
