"""Buffers go back to the pool when the last view dies, or at an explicit free."""
import gc
import threading

import ml_dtypes
import numpy as np
import pytest

from sporeling.core import context
from sporeling.runtime import MemoryPool, PoolError, get_default_pool
from sporeling.runtime.memory import owner_of

from runtime_helpers import KB


def pool(**kw):
    return MemoryPool(block_size="1MB", **kw)


def test_buffer_returns_when_its_last_view_dies():
    p = pool()
    a = p.allocate((64, 64), np.float32)
    views = [a[::2], a.T, a.reshape(-1), np.asarray(a)[1:, 1:], a.view(np.int32)]
    del a
    assert p.stats().in_use == 16 * KB          # the views keep it
    views.pop()
    del views[:-1]
    assert p.stats().live == 1
    views.clear()
    s = p.stats()
    assert s.in_use == 0 and s.live == 0 and s.free == s.reserved


def test_buffer_in_a_reference_cycle_returns_after_gc():
    p = pool()
    holder = {"buffer": p.allocate((1000,), np.float32)}
    holder["self"] = holder
    del holder
    gc.collect()
    assert p.stats().in_use == 0


def test_explicit_free_releases_now_and_is_idempotent_with_the_finalizer():
    p = pool()
    a = p.allocate((1000,), np.float32)
    view = a[10:20]
    p.free(view)                                 # any view frees the whole allocation
    assert p.stats().in_use == 0 and p.stats().live == 0 and not p.owns(a)
    p.free(a)                                    # twice: nothing happens
    b = p.allocate((1000,), np.float32)          # reuses the same extent
    assert b.ctypes.data == a.ctypes.data
    del a, view                                  # the old finalizer must not free b
    assert p.stats().live == 1 and p.owns(b)


def test_free_rejects_foreign_arrays():
    p, other = pool(name="mine"), pool(name="other")
    with pytest.raises(PoolError, match="'mine'"):
        p.free(np.zeros(3))
    with pytest.raises(PoolError):
        p.free(other.allocate((3,), np.float32))
    with pytest.raises(PoolError):
        p.free([1, 2, 3])


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16, np.float32, np.float64])
def test_poison_makes_use_after_free_read_nan(dtype):
    p = pool(poison=True)
    a = p.allocate((257,), dtype)
    a[...] = 1
    p.free(a)                                    # the framework frees; a stale ref reads
    assert np.isnan(a.astype(np.float32)).all()


def test_without_poison_a_stale_buffer_keeps_its_values():
    # the contrast to the poison test: this is why poison is needed to see the bug
    p = pool(poison=False)
    a = p.allocate((257,), np.float32)
    a[...] = 1
    p.free(a)
    assert (a == 1).all()


def test_poison_follows_the_context_in_the_default_pool():
    with context(mempool_poison=True):
        a = get_default_pool().allocate((100,), np.float64)
        a[...] = 3.0
        get_default_pool().free(a)
    assert np.isnan(a).all()


def test_concurrent_allocate_and_free_from_threads():
    p = pool()
    errors = []

    def work(seed):
        rng = np.random.default_rng(seed)
        try:
            live = []
            for _ in range(300):
                if live and rng.random() < 0.5:
                    arr = live.pop(int(rng.integers(len(live))))
                    assert (arr == arr.flat[0]).all()     # nobody else wrote here
                    if rng.random() < 0.5:
                        p.free(arr)
                else:
                    arr = p.allocate((int(rng.integers(1, 4096)),), np.uint8)
                    arr[...] = seed
                    live.append(arr)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    s = p.stats()
    assert s.in_use == 0 and s.live == 0 and s.allocations > 0


def test_owner_of_finds_the_allocation_through_views():
    p = pool()
    a = p.allocate((4, 4), np.float32)
    assert owner_of(a[1:].T) is owner_of(a) is not None
    assert owner_of(np.zeros(3)) is None
