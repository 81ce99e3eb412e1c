"""How a primitive's kernel treats memory -- asked of the kernel registry, per backend.

Each kernel declares its :class:`~sporeling.runtime.KernelMemory` when it is registered
(``kernels.add_kernel(backend, primitive, fn, memory=...)``); lowering asks the backend it
compiles for (:func:`kernel_memory`). An undeclared kernel is treated conservatively: it
allocates, and its outputs may alias any of its inputs.

The sets below are the NumPy backend's facts by kind, kept for readers that want NumPy's
view of a primitive (``sporeling.runtime.kernels.memory`` is where they are declared):

* :data:`VIEW` -- returns a view of its input: never planned, the input must outlive it.
* :data:`WRITES_OUT` -- single-result kernels writing their whole result into ``out=``.
* :data:`FRESH` -- multiple-result kernels allocating every result.
* :data:`IN_PLACE` -- the input positions ``out`` may share memory with.

    >>> "reshape" in VIEW and "matmul" in WRITES_OUT and IN_PLACE["where"]
    (2,)
    >>> from sporeling.runtime import get_backend
    >>> kernel_memory(get_backend("numpy"), "add")
    KernelMemory(kind='out', in_place=(0, 1))
"""
from __future__ import annotations

from sporeling.runtime import KernelMemory
from sporeling.runtime.kernels.memory import NUMPY_MEMORY

__all__ = ["VIEW", "WRITES_OUT", "FRESH", "IN_PLACE", "kernel_memory"]

VIEW = frozenset(n for n, m in NUMPY_MEMORY.items() if m.kind == "view")
WRITES_OUT = frozenset(n for n, m in NUMPY_MEMORY.items() if m.kind == "out")
FRESH = frozenset(n for n, m in NUMPY_MEMORY.items() if m.kind == "fresh")
IN_PLACE: dict[str, tuple[int, ...]] = {n: m.in_place for n, m in NUMPY_MEMORY.items()
                                        if m.in_place}


def kernel_memory(backend, primitive: str) -> KernelMemory:
    """What ``backend``'s kernel for ``primitive`` does with memory, from the registry."""
    return backend.kernel_memory(primitive)
