"""From a traced graph to the graph that is exported: weights baked in as constants, then
the optimisation passes that keep primitives portable (folding, simplification, CSE, DCE
-- not fusion, whose fused chains are an execution detail the loader redoes)."""
from __future__ import annotations

import numpy as np

from ..ir import Const, Graph, Var, verify
from ..passes import optimize
from ..passes.base import STAGES
from ..passes.manager import registered_passes
from .errors import ExportError

__all__ = ["bind_constants", "export_passes", "prepare_for_export"]

_SKIPPED_STAGES = ("fusion",)
_SKIPPED_PASSES = ("recompute",)  # trades memory for time in training graphs only


def bind_constants(graph: Graph, values: list, *, keep: int) -> Graph:
    """``graph`` with inputs ``keep:`` replaced by the constants ``values`` (in order)."""
    rest = graph.inputs[keep:]
    if len(rest) != len(values):
        raise ExportError("one constant per bound graph input", op="export",
                          expected=len(rest), got=len(values))
    consts = {}
    for var, value in zip(rest, values):
        value = np.asarray(value)
        if value.shape != tuple(var.aval.shape) or value.dtype != var.aval.dtype:
            raise ExportError("a constant does not match its graph input", op="export",
                              expected=str(var.aval), got=f"{value.dtype}{list(value.shape)}")
        consts[var] = Const(value)

    def sub(v):
        return consts.get(v, v) if isinstance(v, Var) else v

    equations = [type(eq)(eq.prim, [sub(v) for v in eq.inputs], eq.outputs, eq.params,
                          eq.source) for eq in graph.equations]
    out = Graph(graph.inputs[:keep], equations, [sub(v) for v in graph.outputs], graph.name,
                dict(graph.meta))
    out.meta.pop("captured", None)
    verify(out)
    return out


def export_passes() -> list[str]:
    """Names of the registered passes an exported graph goes through."""
    registry = registered_passes()
    return [p.name for stage in STAGES for p in registry.in_stage(stage)
            if stage not in _SKIPPED_STAGES and p.name not in _SKIPPED_PASSES]


def prepare_for_export(graph: Graph, level: str = "O1") -> Graph:
    """``graph`` optimised for export (see the module doc)."""
    return optimize(graph, level, only=export_passes())
