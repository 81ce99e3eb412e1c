"""The pool's context keys: validated, normalised, followed by the default pool."""
import numpy as np
import pytest

from sporeling.core import ContextError, OutOfMemoryError, context, get_context, set_context
from sporeling.runtime import get_default_pool
from sporeling.runtime.memory.options import physical_memory

from runtime_helpers import MB


def test_defaults():
    assert get_context("mempool_block_size") == 1024**3
    assert get_context("max_device_memory") == physical_memory()     # not 1024 GB
    assert get_context("mempool_poison") is False


@pytest.mark.parametrize("value, expected", [("512MB", 512 * MB), ("1GB", 1024 * MB),
                                             ("2m", 2 * MB), (4 * MB, 4 * MB)])
def test_block_size_accepts_sizes(value, expected):
    set_context(mempool_block_size=value)
    assert get_context("mempool_block_size") == expected


@pytest.mark.parametrize("value", ["1XB", "-1GB", "0", "", "4KB", 1024, 1.5, True, None])
def test_bad_block_sizes_are_context_errors(value):
    with pytest.raises(ContextError, match="mempool_block_size") as info:
        set_context(mempool_block_size=value)
    assert repr(value) in str(info.value)
    assert get_context("mempool_block_size") == 1024**3     # unchanged


@pytest.mark.parametrize("value", ["1XB", "-1GB", 0, "lots"])
def test_bad_max_device_memory_is_a_context_error(value):
    with pytest.raises(ContextError, match="max_device_memory"):
        set_context(max_device_memory=value)


def test_poison_must_be_a_bool():
    with pytest.raises(ContextError, match="mempool_poison"):
        set_context(mempool_poison="yes")


def test_default_pool_reads_block_size_when_it_grows():
    pool = get_default_pool()
    with context(mempool_block_size="2MB"):
        a = pool.allocate((10,), np.float32)
        assert pool.stats().reserved == 2 * MB
    with context(mempool_block_size="4MB"):
        b = pool.allocate((3 * MB,), np.uint8)             # 2 MB block is too small: grow
        assert pool.stats().reserved == 6 * MB and pool.stats().block_size == 4 * MB
    del a, b


def test_default_pool_respects_max_device_memory():
    with context(mempool_block_size="1MB", max_device_memory="3MB"):
        keep = [get_default_pool().allocate((MB,), np.uint8) for _ in range(3)]
        with pytest.raises(OutOfMemoryError, match="cap 3.00 MB"):
            get_default_pool().allocate((10,), np.uint8)
    del keep
