"""The gnn plugin: the segment primitives (``sporeling_add_primitives``) and their NumPy
kernels (``sporeling_add_kernels``)."""
from __future__ import annotations

from sporeling.core import impl


@impl
def sporeling_add_primitives(primitives) -> None:  # compiler's hook
    from .primitives import PRIMITIVES
    primitives.add_primitive(*PRIMITIVES)


@impl
def sporeling_add_kernels(kernels) -> None:  # runtime's hook
    from .kernels import add_kernels
    add_kernels(kernels)
