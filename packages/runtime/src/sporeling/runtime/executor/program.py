"""A lowered program: a flat list of kernel calls over numbered slots and one memory arena.

The compiler decides everything -- which kernel each instruction calls, which slot holds
which value, where in the arena each planned buffer lives -- and the runtime only executes
(see :mod:`.run`). Nothing here knows the compiler's IR.

    >>> import numpy as np
    >>> from sporeling.runtime import get_backend
    >>> cpu = get_backend("CPU")
    >>> p = Program([Instruction(cpu.kernel("exp"), (0,), (1,), out=BufferSpec(0, (2,), "f4"))],
    ...             num_slots=2, input_slots=(0,), output_slots=(1,), arena_bytes=64)
    >>> p.check()
    >>> p.arena_bytes, p.instructions[0].out.nbytes
    (64, 8)
"""
from __future__ import annotations

import keyword

import math
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from sporeling.core import SporelingError

__all__ = ["BufferSpec", "Instruction", "Program", "ProgramError"]


class ProgramError(SporelingError, ValueError):
    """A malformed program (a compiler bug: a slot read before it is written, ...)."""


@dataclass(frozen=True)
class BufferSpec:
    """A planned output buffer: ``shape``/``dtype`` at byte ``offset`` of the arena."""
    offset: int
    shape: tuple
    dtype: Any

    @property
    def nbytes(self) -> int:
        return math.prod(self.shape) * np.dtype(self.dtype).itemsize


@dataclass(eq=False)
class Instruction:
    """``outputs = kernel(backend, *slots[inputs], out=<arena view>, **params)``.

    ``out`` is set only for a single-result kernel that writes into a planned buffer, or
    to an input slot whose buffer it writes when that buffer is writeable (a Parameter
    updated in place; otherwise the kernel allocates) -- for a multi-result kernel a tuple
    of such slots, None for a result it allocates;
    ``multiple_results`` says the kernel returns a tuple (one value per output slot).
    ``name`` and ``where`` (the user's source line) only serve error messages.
    ``bound``: ``kernel`` is the backend's kernel prepared for this call, ``params`` bound
    into it (they stay here for reports): it is called without them.
    """
    kernel: Callable
    inputs: tuple
    outputs: tuple
    params: dict = field(default_factory=dict)
    out: BufferSpec | int | tuple | None = None
    multiple_results: bool = False
    name: str = ""
    where: str | None = None
    bound: bool = False


@dataclass(eq=False)
class Program:
    """Instructions in execution order over ``num_slots`` slots.

    Graph inputs arrive in ``input_slots``; ``constants`` (slot -> value) are placed before
    the first instruction; the result is the values of ``output_slots``. Planned buffers are
    views of one arena of ``arena_bytes`` bytes, allocated once per program from the
    backend's pool (common region) when it first runs and held while the program lives.
    """
    instructions: list
    num_slots: int
    input_slots: tuple
    output_slots: tuple
    constants: dict = field(default_factory=dict)
    arena_bytes: int = 0
    backend: Any = None
    name: str = "program"
    _runner: Callable | None = field(default=None, init=False, repr=False)

    def check(self) -> None:
        """Raise :class:`ProgramError` unless every slot is written once before it is read
        and every planned buffer lies inside the arena."""
        written = set(self.input_slots) | set(self.constants)
        if len(written) != len(self.input_slots) + len(self.constants):
            raise ProgramError("an input slot is also a constant or repeated", op=self.name)
        for i, ins in enumerate(self.instructions):
            where = f"{self.name}, instruction {i} ({ins.name})"
            for s in ins.inputs:
                if s not in written:
                    raise ProgramError("slot read before it is written", where=where, got=s)
            for s in ins.outputs:
                if s in written or not 0 <= s < self.num_slots:
                    raise ProgramError("slot written twice or out of range", where=where,
                                       got=s, expected=f"a fresh slot below {self.num_slots}")
                written.add(s)
            for k in ins.params:
                if not k.isidentifier() or keyword.iskeyword(k) or k == "out":
                    raise ProgramError("bad parameter name", where=where, got=repr(k))
            if isinstance(ins.out, tuple):  # a multi-result kernel's input slots (or None)
                if not ins.multiple_results or len(ins.out) != len(ins.outputs) or any(
                        s is not None and s not in self.input_slots for s in ins.out):
                    raise ProgramError("out= not one input slot or None per result",
                                       where=where, got=ins.out,
                                       expected=f"{len(ins.outputs)} of {self.input_slots}"
                                                " or None")
            elif isinstance(ins.out, int):
                if ins.multiple_results or ins.out not in self.input_slots:
                    raise ProgramError("out= an input slot that is not one", where=where,
                                       expected=f"one of {self.input_slots}", got=ins.out)
            elif ins.out is not None and (ins.multiple_results or ins.out.offset < 0 or
                                          ins.out.offset + ins.out.nbytes > self.arena_bytes):
                raise ProgramError("planned buffer outside the arena", where=where,
                                   expected=f"within {self.arena_bytes} bytes", got=ins.out)
        for s in self.output_slots:
            if s not in written:
                raise ProgramError("output slot never written", op=self.name, got=s)

    def __repr__(self) -> str:
        return (f"<Program {self.name}: {len(self.instructions)} instructions, "
                f"{self.num_slots} slots, arena {self.arena_bytes} B>")
