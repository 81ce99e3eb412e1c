"""The ``tvm`` backend: TVM's generated loops for fused elementwise chains, their sums,
LSTMs, GRUs, max pooling and softmax cross entropy, on top of the CPU stack below it
(oneDNN's kernels where that plugin is installed, NumPy's for the rest).

It serves device target ``CPU`` at ``jit_level="O2"`` (the default: it is ``native``) and
when chosen by name -- ``set_context(backend="tvm")``, ``sporeling train --backend tvm``.
PyNative runs no fused chains, so there it runs the kernels of the backend below but for
the generated RNNs, pooling and cross entropy; ``sporeling kernels --backend tvm`` lists
who serves what.
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
        """Compile, in one module, the generated functions of a program about to run (its
        fused chains, reductions, RNNs, poolings, cross entropies): ``calls`` are
        ``(primitive, params, input (shape, dtype) pairs)``, one per instruction."""
        from .kernels import compile_chains
        chains = [chain for chain in (_chain(*call) for call in calls) if chain is not None]
        if chains:
            compile_chains(chains)

    def explain_call(self, primitive: str, params: dict, specs) -> str:
        """``"tvm: generated"`` for what runs as a generated function, else who runs it
        (and why not generated, where TVM would have)."""
        from .kernels import function, why_not_generated
        chain = _chain(primitive, params, specs)
        if chain is None:
            why = why_not_generated(primitive, params, specs)
            below = super().explain_call(primitive, params, specs)
            return below if why is None else f"{below} (not generated: {why})"
        if function(chain) is None:
            return f"{self.below_provider(primitive)} (not generated: " \
                   f"{why_not_generated(primitive, params, specs) or 'TVM failed on it'})"
        return f"{self.name}: generated"


def _chain(name: str, params: dict, specs):
    """What :func:`~.kernels.compile_chains` compiles for a call of ``name`` on operands
    of these ``(shape, dtype)``, or None: no generated function serves it."""
    from .pooling import POOL_KINDS, pool_spec, pool_unsupported
    from .rnn import rnn_spec, rnn_unsupported
    from .normalize import norm_spec, norm_unsupported
    from .softmax_ce import CE_KINDS, ce_spec, ce_unsupported
    specs = tuple((tuple(s), np.dtype(d).str) for s, d in specs)
    if name == "fused_elementwise":
        return params["expr"], specs
    if name == "fused_reduce":
        return params["expr"], specs, params["axis"], params["reduce"]
    if name in _RNN and rnn_unsupported(name, params, specs) is None:
        return rnn_spec(name, specs, params)
    if name in POOL_KINDS and pool_unsupported(name, *specs[0]) is None:
        return pool_spec(name, *specs[0], params)
    if name in CE_KINDS and ce_unsupported(name, specs) is None:
        return ce_spec(name, specs, params)
    if name == "normalize" and norm_unsupported(specs, params) is None:
        return norm_spec(specs, params)
    return None
