"""The numba_backend plugin: the ``numba`` backend and its kernels, through the runtime's
hooks only (``sporeling_add_backends``, ``sporeling_add_kernels``)."""
from __future__ import annotations

from sporeling.core import impl

from .backend import NumbaBackend
from .compiling import AVAILABLE


@impl
def sporeling_add_backends(backends) -> None:
    backends.add(NumbaBackend.name, NumbaBackend)


@impl
def sporeling_add_kernels(kernels) -> None:
    if not AVAILABLE:  # the backend then runs NumPy's kernels (said once when it does)
        return
    from .kernels import NUMBA_KERNELS
    for primitive, (fn, memory) in NUMBA_KERNELS.items():
        kernels.add_kernel(NumbaBackend.name, primitive, fn, memory=memory)
