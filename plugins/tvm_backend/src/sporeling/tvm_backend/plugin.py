"""The tvm_backend plugin: the ``tvm`` backend, its kernels, the ``fused_reduce`` and
``fused_group`` primitives and the ``fuse_reductions`` and ``group_kernels`` passes, through
the hooks. Importing it does not import TVM (that
happens at the first fused chain it compiles)."""
from __future__ import annotations

from sporeling.core import impl
from sporeling.runtime import KernelMemory

from .backend import TvmBackend
from .group_kernel import fused_group
from .group_kernel import in_place as group_in_place
from .kernels import fused_elementwise, fused_reduce
from .row_kernels import normalize, softmax_cross_entropy, softmax_cross_entropy_grad
from .pool_kernel import max_pool2d, max_pool2d_scatter
from .add_at import add_at
from .take import getitem
from .rnn_kernel import gru, gru_grad, lstm, lstm_grad


@impl
def sporeling_add_context_options(options) -> None:
    options.add_option("tvm_fuse_reductions", True, choices={"True": True, "False": False},
                       doc="Graph mode on the TVM backend fuses sums and means with the "
                           "elementwise chains they reduce (the fuse_reductions pass); "
                           "False: NumPy's reductions.",
                       valid="True or False")
    options.add_option("tvm_group_kernels", True, choices={"True": True, "False": False},
                       doc="Graph mode on the TVM backend runs each run of consecutive "
                           "fused chains and reductions as one generated function (the "
                           "group_kernels pass); False: one kernel call each.",
                       valid="True or False")
    options.add_option("tvm_native_steps", True, choices={"True": True, "False": False},
                       doc="Graph mode on the TVM backend runs a program whose kernels are "
                           "all native (generated loops, oneDNN) as one generated function "
                           "from its third call on; False: its kernels one by one from "
                           "Python.",
                       valid="True or False")


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
    # writes its (reduced) result into out=, reading no buffer of that shape
    kernels.add_kernel(TvmBackend.name, "fused_reduce", fused_reduce,
                       memory=KernelMemory.writes_out())
    for primitive, fn in (("lstm", lstm), ("lstm_grad", lstm_grad), ("gru", gru),
                          ("gru_grad", gru_grad)):
        kernels.add_kernel(TvmBackend.name, primitive, fn, memory=KernelMemory.FRESH)
    kernels.add_kernel(TvmBackend.name, "max_pool2d", max_pool2d, memory=KernelMemory.FRESH)
    # writes every element of out=, reading no buffer of its shape
    kernels.add_kernel(TvmBackend.name, "max_pool2d_scatter", max_pool2d_scatter,
                       memory=KernelMemory.writes_out())
    # write their whole result into out=, reading no buffer of its shape (the gradient is
    # not given the logits' buffer, as NumPy's may be: its rows are read three times)
    for primitive, fn in (("softmax_cross_entropy", softmax_cross_entropy),
                          ("softmax_cross_entropy_grad", softmax_cross_entropy_grad)):
        kernels.add_kernel(TvmBackend.name, primitive, fn, memory=KernelMemory.writes_out())
    kernels.add_kernel(TvmBackend.name, "normalize", normalize, memory=KernelMemory.FRESH)
    # a copied row at an index operand, else the provider below's views
    kernels.add_kernel(TvmBackend.name, "getitem", getitem, memory=KernelMemory.VIEW)
    # a copy of its first operand with the second added where a basic key selects
    kernels.add_kernel(TvmBackend.name, "add_at", add_at, memory=KernelMemory.writes_out())
    # allocates its results but for Parameters' new values, written where they were
    kernels.add_kernel(TvmBackend.name, "fused_group", fused_group,
                       memory=KernelMemory.writes_outs(group_in_place))


@impl
def sporeling_add_primitives(primitives) -> None:
    from .fused_reduce import fused_reduce_p
    from .group import fused_group_p
    primitives.add_primitive(fused_reduce_p, fused_group_p)


@impl
def sporeling_add_passes(passes) -> None:
    from .group_pass import GROUP_KERNELS
    from .reduce_pass import FUSE_REDUCTIONS
    passes.add_pass(FUSE_REDUCTIONS)
    passes.add_pass(GROUP_KERNELS)
