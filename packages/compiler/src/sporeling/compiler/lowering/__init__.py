"""Lowering graphs to runtime programs, with static memory planning.

:func:`lower` turns a :class:`~sporeling.compiler.ir.Graph` into a flat program of kernel
calls (run by :mod:`sporeling.runtime.executor`); :func:`plan_memory` places every planned
buffer in one arena from a liveness analysis, reusing dying inputs' buffers in place.
"""
from . import control  # noqa: F401  (registers the control-flow lowerings)
from .liveness import Liveness, Step, analyse
from .lower import LoweredProgram, lower, lowering_rules, register_lowering
from .memplan import Buffer, MemoryPlan, lower_bound, plan_memory
from .tables import FRESH, IN_PLACE, VIEW, WRITES_OUT

__all__ = ["Liveness", "Step", "analyse", "LoweredProgram", "lower", "lowering_rules",
           "register_lowering", "Buffer", "MemoryPlan", "lower_bound", "plan_memory", "FRESH",
           "IN_PLACE", "VIEW", "WRITES_OUT"]
