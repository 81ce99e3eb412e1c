"""The numba backend's kernel table: primitive -> (kernel, memory facts)."""
from __future__ import annotations

from sporeling.runtime import KernelMemory
from sporeling.runtime.kernels.memory import NUMPY_MEMORY

from . import fused

__all__ = ["NUMBA_KERNELS"]

# each kernel keeps NumPy's memory contract (the conformance suite checks it does)
NUMBA_KERNELS: dict[str, tuple] = {
    "fused_elementwise": (fused.fused_elementwise, NUMPY_MEMORY["fused_elementwise"]),
}
