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

from sporeling.core import get_context
from sporeling.runtime import CallReport, StackedBackend, get_backends

__all__ = ["TvmBackend", "enabled_by"]

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

    def prepare_kernels(self, calls) -> list:
        """Compile, in one module, the generated functions of a program about to run (its
        fused chains, reductions, RNNs, poolings, cross entropies, normalisations): ``calls`` are
        ``(primitive, params, input (shape, dtype) pairs)``, one per instruction. Returns
        each group's kernel prepared for its call (no lookup by shapes on every call: most
        of a small step's time), None for the other calls."""
        from .group_kernel import prepared_group
        from .kernels import call_chain, compile_chains
        chains = [chain for chain, _ in (call_chain(*call) for call in calls)
                  if chain is not None]
        if chains:
            compile_chains(chains)
        return [prepared_group(params, specs) if primitive == "fused_group" else None
                for primitive, params, specs in calls]

    def native_step(self, program, recording, inputs, outputs):
        """The recorded run of ``program`` as one generated function (see
        :mod:`.native_step`), or why not."""
        if not get_context("tvm_native_steps"):
            return "set_context(tvm_native_steps=False)"
        from .native_step import native_step
        return native_step(program, recording, inputs, outputs)

    def explain_call(self, primitive: str, params: dict, specs) -> CallReport:
        """Generated, for what runs as a generated function; else who runs it (and why
        not generated, where TVM would have)."""
        from .kernels import call_chain, function
        chain, why = call_chain(primitive, params, specs)
        if chain is not None and why is None and function(chain) is not None:
            return CallReport(self.name, generated=True)
        if chain is None and why is None:  # none of TVM's primitives
            return super().explain_call(primitive, params, specs)
        return CallReport(self.below_provider(primitive),
                          not_generated=why or "TVM failed on it")


def enabled_by(key: str):
    """A pass's ``enabled``: on when the context key ``key`` is and the graph is lowered on
    this backend (the plugin's passes rewrite into primitives only its kernels run as
    one)."""
    def enabled(ctx) -> bool:
        return bool(get_context(key)) and isinstance(ctx.lowering_backend(), TvmBackend)
    return enabled
