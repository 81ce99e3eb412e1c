"""Lowering graphs to runtime programs, with static memory planning.

:func:`lower` turns a :class:`~sporeling.compiler.ir.Graph` into a flat program of kernel
calls (run by :mod:`sporeling.runtime.executor`); :func:`plan_memory` places every planned
buffer in one arena from a liveness analysis, reusing dying inputs' buffers in place;
:func:`decompose` first replaces what the backend has no kernel for by its decomposition.
"""
from . import control  # noqa: F401  (attaches the control-flow lowering rules)
from .decompose import decompose
from .liveness import Liveness, Step, analyse
from .lower import LoweredProgram, lower
from .memplan import Buffer, MemoryPlan, lower_bound, plan_memory

__all__ = ["Liveness", "Step", "analyse", "LoweredProgram", "lower", "decompose", "Buffer",
           "MemoryPlan", "lower_bound", "plan_memory"]
