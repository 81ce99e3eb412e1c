"""The probability plugin: the special-function and sampling primitives (the compiler's
``sporeling_add_primitives``) and their kernels (the runtime's ``sporeling_add_kernels``)."""
from __future__ import annotations

from sporeling.core import impl


@impl
def sporeling_add_primitives(primitives) -> None:
    from .incomplete import INCOMPLETE_PRIMITIVES
    from .sampling import SAMPLING_PRIMITIVES
    from .special import SPECIAL_PRIMITIVES
    primitives.add_primitive(*SPECIAL_PRIMITIVES, *SAMPLING_PRIMITIVES, *INCOMPLETE_PRIMITIVES)


@impl
def sporeling_add_kernels(kernels) -> None:
    from .kernels import add_kernels
    add_kernels(kernels)
