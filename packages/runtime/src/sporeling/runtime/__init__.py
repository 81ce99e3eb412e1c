"""sporeling.runtime: backends, kernels by primitive name, and the memory pool.

    >>> import numpy as np
    >>> import sporeling.runtime as sr
    >>> cpu = sr.get_backend("CPU")
    >>> x = cpu.from_numpy(np.array([[1.0, 2.0]], np.float32))
    >>> cpu.to_numpy(cpu.run("matmul", x, cpu.run("exp", np.zeros((2, 1), np.float32))))
    array([[3.]], dtype=float32)
"""
from importlib.metadata import PackageNotFoundError, version as _version

from .backend import Backend, BackendRegistry, CallReport, get_backend, get_backends
from .errors import BackendNotFoundError, KernelNotFoundError, PoolError
from .kernel_registry import Kernel, KernelMemory, KernelRegistry, get_kernels
from .memory import MemoryPool, PoolStats, RegionStats, get_default_pool, set_default_pool
from .numpy_backend import NumpyBackend
from .stacked_backend import StackedBackend

try:
    __version__ = _version("sporeling-runtime")
except PackageNotFoundError:  # running from a source tree
    __version__ = "0+unknown"

__all__ = [
    "Backend", "BackendRegistry", "CallReport", "get_backend", "get_backends", "Kernel", "KernelMemory", "KernelRegistry",
    "get_kernels", "NumpyBackend", "StackedBackend", "MemoryPool", "PoolStats", "RegionStats",
    "get_default_pool", "set_default_pool", "BackendNotFoundError", "KernelNotFoundError",
    "PoolError", "__version__",
]
