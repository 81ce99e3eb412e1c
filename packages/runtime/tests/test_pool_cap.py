"""The cap (``max_device_memory``) means what it says: blocks fit under it, idle blocks make
room, lowering it releases or refuses, and memory the OS refuses is an OutOfMemoryError."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from sporeling.core import ContextError, OutOfMemoryError, context, get_context, set_context
from sporeling.runtime import (MemoryPool, PoolError, get_backend, get_default_pool,
                               set_default_pool)
from sporeling.runtime.memory import options

from runtime_helpers import KB, MB


def test_a_cap_equal_to_the_block_size_serves_both_regions():
    # issue 9.8: the persistent region's first block took the whole cap, so the first op
    # output of a Dense(64, 256) was out of memory with 1023.94 MB free.
    with context(max_device_memory="1GB"):            # block size: its 1 GB default
        cpu = get_backend()
        w = cpu.from_numpy(np.ones((64, 256), np.float32), persistent=True)
        y = cpu.run("matmul", cpu.from_numpy(np.ones((8, 64), np.float32)), w)
        assert cpu.to_numpy(y)[0, 0] == 64.0
        s = get_default_pool().stats()
        assert s.reserved <= 1024 * MB and s.regions["common"].blocks == 1
        assert s.block_size == 512 * MB and "blocks of 512.00 MB, cap 1.00 GB" in s.summary()
        del w, y


def test_blocks_are_at_most_half_the_cap_and_never_pass_it():
    pool = MemoryPool(block_size="4MB", max_memory="3MB")
    w = pool.allocate((10,), np.uint8, persistent=True)
    x = pool.allocate((10,), np.uint8)
    s = pool.stats()
    assert s.regions["persistent"].reserved == s.regions["common"].reserved == 1536 * KB
    with pytest.raises(OutOfMemoryError, match="cap 3.00 MB"):
        pool.allocate((2 * MB,), np.uint8)
    assert pool.stats().reserved == 3 * MB
    del w, x


def test_idle_blocks_are_released_to_make_room_under_the_cap():
    pool = MemoryPool(block_size="1MB", max_memory="2MB")
    w = pool.allocate((700 * KB,), np.uint8, persistent=True)
    a = pool.allocate((700 * KB,), np.uint8)
    del w                                   # the persistent block is idle now
    b = pool.allocate((700 * KB,), np.uint8)  # needs a second common block
    s = pool.stats()
    assert s.reserved == 2 * MB and s.regions["common"].blocks == 2
    assert s.regions["persistent"].blocks == 0
    del a, b


def test_lowering_the_cap_releases_idle_blocks_or_refuses_with_what_is_in_use():
    set_context(mempool_block_size="1MB", max_device_memory="8MB")
    pool = get_default_pool()
    keep = [pool.allocate((700 * KB,), np.uint8) for _ in range(3)]
    del keep[2]
    assert pool.stats().reserved == 3 * MB
    with pytest.raises(ContextError) as info:
        set_context(max_device_memory="1MB")
    message = str(info.value)
    for figure in ("max_device_memory", "'1MB'", "reserved 2.00 MB", "in use 1.37 MB",
                   "2 live buffers", "'default'"):
        assert figure in message
    assert get_context("max_device_memory") == 8 * MB          # refused: unchanged
    assert pool.stats().reserved == 2 * MB                     # the idle block went
    set_context(max_device_memory="2MB")                       # fits what is held
    del keep
    set_context(max_device_memory="1MB")
    assert pool.stats().reserved == 0 and get_context("max_device_memory") == MB


def test_a_replaced_default_pool_no_longer_holds_the_cap_up():
    set_context(mempool_block_size="1MB")
    old = get_default_pool()
    keep = old.allocate((700 * KB,), np.uint8)
    set_default_pool(None)                            # out of service, its buffer alive
    set_context(max_device_memory="512KB")
    assert get_default_pool() is not old and old.owns(keep)
    set_default_pool(old)                             # back in service: checked again
    with pytest.raises(ContextError, match="'default'"):
        set_context(max_device_memory="256KB")
    del keep


def test_a_pool_with_its_own_cap_lowers_it_the_same_way():
    pool = MemoryPool(block_size="1MB", max_memory="4MB", name="own")
    a = pool.allocate((700 * KB,), np.uint8)
    b = pool.allocate((700 * KB,), np.uint8)
    del b
    with pytest.raises(PoolError, match="reserved 1.00 MB.*in use 700.00 KB"):
        pool.set_max_memory("512KB")
    assert pool.max_memory == 4 * MB and pool.stats().reserved == MB
    pool.set_max_memory("1MB")
    assert pool.max_memory == MB
    with pytest.raises(OutOfMemoryError, match="cap 1.00 MB"):
        pool.allocate((700 * KB,), np.uint8)
    del a


def test_memory_the_os_refuses_is_an_out_of_memory_error_with_the_statistics():
    resource = pytest.importorskip("resource")
    if not os.path.exists("/proc/self/status"):
        pytest.skip("reads the process size from /proc")
    script = textwrap.dedent("""
        import resource
        import numpy as np
        from sporeling.core import OutOfMemoryError
        from sporeling.runtime import MemoryPool

        pool = MemoryPool(block_size="1MB", max_memory="64GB", name="limited")
        small = pool.allocate((1000,), np.float32)
        size = next(int(l.split()[1]) * 1024 for l in open("/proc/self/status")
                    if l.startswith("VmSize"))
        resource.setrlimit(resource.RLIMIT_AS, (size + 64 * 2**20, resource.RLIM_INFINITY))
        try:
            pool.allocate((2**30,), np.uint8)            # a 1 GB block: over the limit
        except OutOfMemoryError as exc:
            print(type(exc).__name__, "|", exc)
            print("stats", exc.requested, exc.stats.in_use, exc.stats.reserved)
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("OutOfMemoryError | "), out.stdout + out.stderr
    for figure in ("the operating system refused", "requested 1.00 GB", "in use 3.94 KB",
                   "reserved 1.00 MB", "cap 64.00 GB", "'limited'"):
        assert figure in out.stdout
    assert f"stats {2**30} 4032 {MB}" in out.stdout


def test_the_default_cap_is_the_machines_physical_memory():
    physical = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    assert options.physical_memory() == physical
    assert get_context("max_device_memory") == options.DEFAULT_MAX_MEMORY == physical


def test_physical_memory_falls_back_when_the_os_cannot_tell(monkeypatch):
    def unsupported(name):
        raise ValueError(f"unrecognized configuration name {name!r}")
    monkeypatch.setattr(options.os, "sysconf", unsupported)
    assert options.physical_memory() == options.FALLBACK_MAX_MEMORY
