"""The NumPy CPU backend: the reference every other backend's kernels are tested against.

Buffers are NumPy arrays in a :class:`~sporeling.runtime.memory.MemoryPool` (the process-wide
default pool unless one is given); kernels write into them with ``out=``.

    >>> import numpy as np
    >>> from sporeling.runtime.memory import MemoryPool
    >>> cpu = NumpyBackend(pool=MemoryPool(block_size="1MB"))
    >>> a = cpu.from_numpy(np.arange(6, dtype=np.float32).reshape(2, 3))
    >>> cpu.to_numpy(cpu.run("sum", a, axis=1))
    array([ 3., 12.], dtype=float32)
"""
from __future__ import annotations

import numpy as np

from .backend import Backend
from .memory import MemoryPool, get_default_pool
from .memory import default as _default

__all__ = ["NumpyBackend"]


class NumpyBackend(Backend):
    """Host memory from a pool, NumPy kernels."""

    name = "numpy"
    device_target = "CPU"

    def __init__(self, pool: MemoryPool | None = None) -> None:
        self._pool = pool

    @property
    def pool(self) -> MemoryPool:
        return self._pool if self._pool is not None else get_default_pool()

    def allocate(self, shape, dtype=np.float32, persistent: bool = False) -> np.ndarray:
        # every kernel's output: the default pool read without get_default_pool's call
        pool = self._pool or _default._pool or get_default_pool()
        if persistent:
            return pool.allocate(shape, dtype, persistent=True)
        return pool.allocate(shape, dtype)  # no keyword on the hot path (~0.1 us a call)

    def from_numpy(self, array, persistent: bool = False) -> np.ndarray:
        array = np.asarray(array)
        buffer = self.allocate(array.shape, array.dtype, persistent)
        np.copyto(buffer, array)
        return buffer

    def to_numpy(self, buffer) -> np.ndarray:
        # a copy: the caller owns it, and it survives the pool freeing the buffer
        return np.array(buffer, copy=True)

    def free(self, buffer: np.ndarray) -> None:
        """Return a buffer to the pool now (when its user count reaches zero)."""
        self.pool.free(buffer)
