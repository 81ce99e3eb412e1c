"""Which Parameter inputs of a compiled graph must be fed as copies.

A compiled graph writes each updated Parameter in place with ``assign`` (see
:mod:`.tracing`), as its last equations. An ordinary output that *is* the Parameter's old
buffer -- ``return w`` before the update, or ``w * 1.0`` once the simplifier has removed
the multiplication, or a view of it -- would be overwritten by that write. Such Parameters
are found once per compiled graph, from the optimised graph and how each kernel of the
backend the graph was lowered for treats memory (``backend.kernel_memory``: kernels not
declared to write fresh memory may alias their inputs), and fed as read-only copies: ``assign`` then returns the new value
without writing, the outputs keep the old one, and the run copies the new value into the
Parameter's own buffer.
"""
from __future__ import annotations

from sporeling.compiler.ir import Var

__all__ = ["aliased_param_inputs"]


def aliased_param_inputs(graph, n_outputs: int, param_slots: range, written: set,
                         backend) -> list:
    """Input positions (among ``param_slots``, restricted to ``written``: those assigned)
    that one of the first ``n_outputs`` outputs of ``graph`` may share memory with, when
    ``backend``'s kernels run it."""
    alias = {v: {i} for i, v in enumerate(graph.inputs) if i in param_slots and i in written}
    if not alias:
        return []
    for eq in graph.equations:
        if backend.kernel_memory(eq.prim.name).kind in ("out", "fresh", "outs"):
            continue  # their results are fresh memory
        sources = set()
        for v in eq.inputs:
            if isinstance(v, Var):
                sources |= alias.get(v, set())
        if sources:
            for out in eq.outputs:
                alias[out] = sources
    found = set()
    for v in graph.outputs[:n_outputs]:
        if isinstance(v, Var):
            found |= alias.get(v, set())
    return sorted(found)
