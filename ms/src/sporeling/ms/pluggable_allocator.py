"""``PluggableAllocator(path_to_so_file, alloc_fn_name, free_fn_name)`` (2.10's
``mindspore.runtime``): a shared library's allocation functions, loaded with ctypes, that a
``MemPool(allocator=...)`` takes its blocks from -- the tensors made inside
``use_mem_pool(pool)`` then live in that memory (sporeling.runtime's pool carves the blocks).

The functions have MindSpore's signatures: ``void* alloc_fn(size_t size, int device, void*
stream)`` and ``void free_fn(void* ptr, size_t size, void* stream)``; here ``device`` is the
current device id and ``stream`` NULL (one synchronous host stream). A block is freed when
the pool lets it go (``empty_cache``, or the pool and its tensors collected)."""
from __future__ import annotations

import ctypes
import weakref

__all__ = ["PluggableAllocator"]


class PluggableAllocator:
    """A ``.so`` file's ``alloc``/``free`` pair (see the module doc)."""

    def __init__(self, path_to_so_file: str, alloc_fn_name: str, free_fn_name: str):
        for name, value in (("path_to_so_file", path_to_so_file),
                            ("alloc_fn_name", alloc_fn_name), ("free_fn_name", free_fn_name)):
            if not isinstance(value, str):
                raise TypeError(f"For 'PluggableAllocator', '{name}' must be a str, but got "
                                f"{type(value).__name__}.")
        library = ctypes.CDLL(path_to_so_file)
        self._alloc = getattr(library, alloc_fn_name)
        self._alloc.restype = ctypes.c_void_p
        self._alloc.argtypes = [ctypes.c_size_t, ctypes.c_int, ctypes.c_void_p]
        self._free = getattr(library, free_fn_name)
        self._free.restype = None
        self._free.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
        self._library = library  # keeps the functions loaded while blocks are out

    def allocate(self, nbytes: int):
        """``nbytes`` from ``alloc_fn`` as a ctypes buffer; ``free_fn`` runs when the
        buffer (the pool's block and every tensor over it) is gone."""
        from .runtime_info import get_current_device
        pointer = self._alloc(nbytes, int(get_current_device().device_id or 0), None)
        if not pointer:
            raise MemoryError(f"PluggableAllocator: the allocation function returned NULL "
                              f"for {nbytes} bytes")
        memory = (ctypes.c_uint8 * nbytes).from_address(pointer)
        weakref.finalize(memory, self._free, pointer, nbytes, None)
        return memory
