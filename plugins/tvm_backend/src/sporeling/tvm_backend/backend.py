"""The ``tvm`` backend: TVM's generated loops for fused elementwise chains, their sums,
LSTMs, GRUs and max pooling, on top of the CPU stack below it (oneDNN's kernels where that plugin is installed,
NumPy's for the rest).

It serves device target ``CPU`` at ``jit_level="O2"`` (the default: it is ``native``) and
when chosen by name -- ``set_context(backend="tvm")``, ``sporeling train --backend tvm``.
PyNative runs no fused chains, so there it runs the kernels of the backend below but for
the generated RNNs and pooling; ``sporeling kernels --backend tvm`` lists who serves what.
"""
from __future__ import annotations

import numpy as np

from sporeling.runtime import StackedBackend, get_backends

__all__ = ["TvmBackend"]

_RNN = ("lstm", "lstm_grad", "gru", "gru_grad")


class TvmBackend(StackedBackend):
    name = "tvm"
    priority = -1  # by name or by jit_level="O2"; PyNative's default stays oneDNN's (1)
    native = True
    log_name = "sporeling.tvm"

    @property
    def below(self) -> str:
        """oneDNN's stack where installed, else NumPy."""
        return "onednn" if "onednn" in get_backends() else "numpy"

    def recomputes_in_fusion(self, primitive: str) -> bool:
        """The nodes TVM generates are recomputed inside a chain's loop rather than stored
        (the fusion pass then merges chains that share a value into one loop)."""
        from .elementwise import EXPRESSIONS
        return primitive in EXPRESSIONS

    def prepare_kernels(self, calls) -> None:
        """Compile, in one module, the fused chains, reductions, RNNs and poolings of a program
        about to run: ``calls`` are ``(primitive, params, input (shape, dtype) pairs)``,
        one per instruction."""
        from .kernels import compile_chains
        from .pooling import POOL_KINDS, pool_spec, pool_unsupported
        from .rnn import rnn_spec, rnn_unsupported
        chains = []
        for name, params, specs in calls:
            specs = tuple((tuple(s), np.dtype(d).str) for s, d in specs)
            if name == "fused_elementwise":
                chains.append((params["expr"], specs))
            elif name == "fused_reduce":
                chains.append((params["expr"], specs, params["axis"], params["reduce"]))
            elif name in _RNN and rnn_unsupported(name, params, specs) is None:
                chains.append(rnn_spec(name, specs, params))
            elif name in POOL_KINDS and pool_unsupported(name, *specs[0]) is None:
                chains.append(pool_spec(name, *specs[0], params))
        if chains:
            compile_chains(chains)
