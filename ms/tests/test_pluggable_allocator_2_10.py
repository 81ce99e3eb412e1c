"""``PluggableAllocator`` (2.10): a MemPool's blocks come from a shared library's alloc/free
(a small C library compiled here; skipped without a C compiler)."""
import shutil
import subprocess

import numpy as np
import pytest

import sporeling.ms as ms

_SOURCE = r"""
#include <stdlib.h>
static long live_bytes = 0, calls = 0;
void* my_alloc(size_t size, int device, void* stream) {
    calls++; live_bytes += (long)size; return malloc(size);
}
void my_free(void* ptr, size_t size, void* stream) { live_bytes -= (long)size; free(ptr); }
long live(void) { return live_bytes; }
long alloc_calls(void) { return calls; }
"""


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler")
    folder = tmp_path_factory.mktemp("alloc")
    (folder / "alloc.c").write_text(_SOURCE)
    path = folder / "liballoc.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-o", str(path), str(folder / "alloc.c")],
                   check=True)
    return str(path)


def test_mem_pool_blocks_come_from_the_library(library):
    import ctypes
    lib = ctypes.CDLL(library)
    lib.live.restype = lib.alloc_calls.restype = ctypes.c_long
    allocator = ms.PluggableAllocator(library, "my_alloc", "my_free")
    assert ms.runtime.PluggableAllocator is ms.PluggableAllocator
    pool = ms.MemPool(allocator)
    with ms.use_mem_pool(pool):
        x = ms.Tensor(np.arange(1000, dtype=np.float32)) * 2
    assert lib.alloc_calls() >= 1 and lib.live() >= x.asnumpy().nbytes
    assert pool.memory_stats()["total_reserved_memory"] <= lib.live()
    np.testing.assert_array_equal(x.asnumpy(), np.arange(1000) * 2)
    del x
    pool._pool.empty_cache()          # the idle blocks go back to the library
    import gc
    gc.collect()
    assert lib.live() == 0


def test_bad_arguments(library):
    with pytest.raises(TypeError, match="alloc_fn_name"):
        ms.PluggableAllocator(library, 1, "my_free")
    with pytest.raises(AttributeError):
        ms.PluggableAllocator(library, "no_such_function", "my_free")
    with pytest.raises(TypeError, match="PluggableAllocator or None"):
        ms.MemPool(allocator="malloc")
