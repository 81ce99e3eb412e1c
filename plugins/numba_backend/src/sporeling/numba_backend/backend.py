"""The ``numba`` backend: NumPy's buffers and pool, numba's kernels where it has them.

It serves device target ``CPU`` below NumPy's priority, so it runs only when chosen:
``set_context(device_target="CPU", backend="numba")``. A primitive it has no kernel for
runs NumPy's kernel (said once in the log, at INFO, logger ``sporeling.numba_backend``),
with NumPy's memory facts; without numba installed every kernel is NumPy's.
"""
from __future__ import annotations

from sporeling.runtime import KernelMemory, NumpyBackend, get_kernels

from .compiling import AVAILABLE, say_once

__all__ = ["NumbaBackend"]


class NumbaBackend(NumpyBackend):
    name = "numba"
    device_target = "CPU"
    priority = -1  # chosen with set_context(backend="numba"), never by default

    def _owner(self, primitive: str) -> str:
        """The backend whose kernel runs ``primitive``: ours, else NumPy's."""
        kernels = get_kernels()
        if kernels.lookup(self.name, primitive) is not None:
            return self.name
        if kernels.lookup(NumpyBackend.name, primitive) is not None:
            if not AVAILABLE:
                say_once("no-numba", "numba is not installed: the numba backend runs "
                         "NumPy's kernels")
            else:
                say_once(("fallback", primitive), "numba backend: no kernel for %r, "
                         "running NumPy's", primitive)
            return NumpyBackend.name
        return self.name  # neither: Backend.kernel names what is missing

    def kernel(self, primitive: str):
        owner = self._owner(primitive)
        return get_kernels().lookup(owner, primitive) if owner != self.name \
            else super().kernel(primitive)

    def has_kernel(self, primitive: str) -> bool:
        kernels = get_kernels()
        return (kernels.lookup(self.name, primitive) is not None
                or kernels.lookup(NumpyBackend.name, primitive) is not None)

    def kernel_memory(self, primitive: str) -> KernelMemory:
        return get_kernels().memory(self._owner(primitive), primitive)
