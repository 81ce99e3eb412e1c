"""Complex inputs of the functions that split a number into parts (``real``, ``imag``,
``conj``, ``angle``, ``isreal``, ``adjoint``...). Sporeling's compiled ops are real, so a
complex Tensor's parts are computed by NumPy here: PyNative only, without gradient (the
existing eager-only mechanism says so under a trace or a recording grad). Real inputs keep
the traced, differentiable paths of the callers."""
from __future__ import annotations

import numpy as np

from sporeling.core.dtypes import is_complex
from sporeling.ms.common import eager_only

from ._util import Tensor

__all__ = ["complex_input", "complex_part"]


def complex_input(x) -> bool:
    """Whether ``x`` (a Tensor) holds complex numbers."""
    return is_complex(x.dtype)


def complex_part(qualname: str, numpy_fn, x):
    """``numpy_fn`` of the complex Tensor ``x``, as a Tensor (PyNative only)."""
    @eager_only(qualname)
    def run(value):
        return Tensor(np.ascontiguousarray(numpy_fn(value.asnumpy())))
    return run(x)
