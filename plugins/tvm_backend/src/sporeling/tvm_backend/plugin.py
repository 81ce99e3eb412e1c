"""The tvm_backend plugin: the ``tvm`` backend and its kernel, through the runtime's hooks.
Importing it does not import TVM (that happens at the first fused chain it compiles)."""
from __future__ import annotations

from sporeling.core import impl
from sporeling.runtime import KernelMemory

from .backend import TvmBackend
from .kernels import fused_elementwise


@impl
def sporeling_add_backends(backends) -> None:
    backends.add(TvmBackend.name, TvmBackend)


@impl
def sporeling_add_kernels(kernels) -> None:
    # writes its whole result into out=, which may be any operand of the output's shape:
    # the loop reads each operand at the index it writes (a smaller, broadcast operand is
    # never given the output's buffer: the planner shares buffers of one shape only)
    kernels.add_kernel(TvmBackend.name, "fused_elementwise", fused_elementwise,
                       memory=KernelMemory.writes_out("all"))
