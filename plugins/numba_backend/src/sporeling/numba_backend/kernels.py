"""The numba backend's kernel table: primitive -> (kernel, memory facts).

Each kernel keeps NumPy's memory contract for its primitive (``out=`` written whole,
the same in-place positions), which the conformance suite checks.
"""
from __future__ import annotations

from sporeling.runtime.kernels import NUMPY_KERNEL_MEMORY

from . import fused, nn

__all__ = ["NUMBA_KERNELS"]

_KERNELS = {
    "fused_elementwise": fused.fused_elementwise,
    "softmax_cross_entropy": nn.softmax_cross_entropy,
    "softmax_cross_entropy_grad": nn.softmax_cross_entropy_grad,
    "max_pool2d": nn.max_pool2d,
    "max_pool2d_scatter": nn.max_pool2d_scatter,
}

NUMBA_KERNELS: dict[str, tuple] = {name: (fn, NUMPY_KERNEL_MEMORY[name])
                                   for name, fn in _KERNELS.items()}
