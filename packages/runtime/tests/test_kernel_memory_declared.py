"""Issue 21: each NumPy kernel declares what it does with memory where it is defined
(``define(name, memory=...)``), not in a separate table by name; the registry carries it."""
import importlib.util

import numpy as np

from sporeling.runtime import KernelMemory, get_kernels
from sporeling.runtime.kernels import NUMPY_KERNEL_MEMORY, NUMPY_KERNELS, define_ufunc
from sporeling.runtime.kernels import elementwise, table


def test_every_kernel_is_registered_with_what_define_declared():
    assert set(NUMPY_KERNEL_MEMORY) == set(NUMPY_KERNELS)
    kernels = get_kernels()
    for name, memory in NUMPY_KERNEL_MEMORY.items():
        assert kernels.memory("numpy", name) == memory, name
    assert importlib.util.find_spec("sporeling.runtime.kernels.memory") is None


def test_ufunc_kernels_write_out_over_any_input():
    for name, ufunc in elementwise.UFUNCS.items():
        assert NUMPY_KERNEL_MEMORY[name] == KernelMemory.writes_out(tuple(range(ufunc.nin)))
    facts = {n: NUMPY_KERNEL_MEMORY[n] for n in ("reshape", "normalize", "where", "assign")}
    assert facts == {"reshape": KernelMemory.VIEW, "normalize": KernelMemory.FRESH,
                     "where": KernelMemory.writes_out((2,)), "assign": KernelMemory.OPAQUE}


def test_define_records_the_declaration_with_the_kernel():
    name = "test_declared_hypot"
    try:
        kernel = define_ufunc(name, np.hypot)
        assert NUMPY_KERNELS[name] is kernel
        assert NUMPY_KERNEL_MEMORY[name] == KernelMemory.writes_out((0, 1))
        table.define(name + "_opaque", lambda backend, x, out=None: x)
        assert NUMPY_KERNEL_MEMORY[name + "_opaque"] == KernelMemory.OPAQUE
    finally:
        for n in (name, name + "_opaque"):
            NUMPY_KERNELS.pop(n, None)
            NUMPY_KERNEL_MEMORY.pop(n, None)
