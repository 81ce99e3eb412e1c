"""The ``numba`` backend: NumPy's buffers and pool, numba's kernels where it has them.

It serves device target ``CPU`` below NumPy's priority, so it runs only when chosen:
``set_context(device_target="CPU", backend="numba")``. A primitive it has no kernel for
runs NumPy's kernel (said once in the log, at INFO, logger ``sporeling.numba``),
with NumPy's memory facts; without numba installed every kernel is NumPy's.
"""
from __future__ import annotations

from sporeling.runtime import StackedBackend

from .compiling import AVAILABLE, say_once

__all__ = ["NumbaBackend"]


class NumbaBackend(StackedBackend):
    name = "numba"
    priority = -1  # chosen with set_context(backend="numba"), never by default
    log_name = "sporeling.numba_backend"

    def provider(self, primitive: str) -> str:
        if not AVAILABLE:
            say_once("no-numba", "numba is not installed: the numba backend runs "
                     "NumPy's kernels")
        return super().provider(primitive)
