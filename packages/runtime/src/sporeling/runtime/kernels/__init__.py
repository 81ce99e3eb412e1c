"""The NumPy backend's kernels, by primitive name, each declaring what it does with memory
where it is defined (see :mod:`.table` to add one).

    >>> from sporeling.runtime.kernels import NUMPY_KERNELS
    >>> {"add", "matmul", "sum"} <= set(NUMPY_KERNELS)
    True
"""
from . import activation, elementwise, indexing, linalg, nn  # noqa: F401  (they fill the table)
from . import assign, quant, random, reduction, shape, sorting  # noqa: F401
from . import fused  # noqa: F401  (after the kernels it calls by name)
from .table import NUMPY_KERNEL_MEMORY, NUMPY_KERNELS, define, define_ufunc, from_ufunc, output

__all__ = ["NUMPY_KERNELS", "NUMPY_KERNEL_MEMORY", "define", "define_ufunc", "from_ufunc",
           "output"]
