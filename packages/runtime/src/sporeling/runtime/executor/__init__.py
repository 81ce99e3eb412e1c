"""Executing lowered programs: flat kernel calls over slots and a statically planned arena.

The compiler lowers a graph into a :class:`Program`; :func:`run` executes it. The runtime
knows no IR: an instruction is a kernel, the slots it reads and writes, its parameters and
where in the arena its output goes.
"""
from .program import BufferSpec, Instruction, Program, ProgramError
from .run import ExecutionError, build, run

__all__ = ["BufferSpec", "Instruction", "Program", "ProgramError", "ExecutionError", "build",
           "run"]
