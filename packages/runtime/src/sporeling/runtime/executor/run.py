"""Executing a :class:`~.program.Program`: straight-line Python built once per program.

Building turns the instruction list into one generated function, a line per instruction::

    s7 = k3(B, s2, s5, out=o3, axis=p3_axis)
    del s2

Kernels, parameters and arena views are globals of that function, slots are its locals, so
an instruction costs one call -- no loop, no dict lookups, no ``partial`` merging keyword
dictionaries -- and a slot's reference is dropped by ``del`` right after its last reader, so
a buffer the kernels allocated from the pool goes back there at once.

    >>> import numpy as np
    >>> from sporeling.runtime import get_backend
    >>> from sporeling.runtime.executor import BufferSpec, Instruction, Program
    >>> cpu = get_backend("CPU")
    >>> p = Program([Instruction(cpu.kernel("mul"), (0, 2), (1,), out=BufferSpec(0, (2,), "f4")),
    ...              Instruction(cpu.kernel("sum"), (1,), (3,), {"axis": 0})],
    ...             num_slots=4, input_slots=(0,), output_slots=(3,),
    ...             constants={2: np.float32(3)}, arena_bytes=64, backend=cpu)
    >>> run(p, [np.array([1, 2], np.float32)])
    [array(9., dtype=float32)]
"""
from __future__ import annotations

import collections
import linecache
import threading
import types
from time import perf_counter_ns
from typing import Callable, Sequence

import numpy as np

from sporeling.core import SporelingError

from ..events import kernel_listeners as _kernel_listeners, kernel_ran
from . import capture
from .program import Program
from .replay import Replay as _Replay

__all__ = ["run", "build", "ExecutionError"]


class ExecutionError(SporelingError, RuntimeError):
    """A kernel failed while a program ran; names the instruction and its source line."""


def run(program: Program, inputs: Sequence) -> list:
    """The program's outputs for ``inputs`` (one per input slot), as a list."""
    runner = program._runner
    if runner is None:
        runner = build(program)
    return runner(*inputs)


def build(program: Program) -> Callable[..., list]:
    """Check ``program``, allocate its arena and generate its runner (cached on it)."""
    if program._runner is None:
        program.check()
        program._runner = _Builder(program).runner()
    return program._runner


class _Builder:
    def __init__(self, program: Program):
        self.p = program
        if program.backend is None:
            from ..backend import get_backend
            program.backend = get_backend()
        self.ns = {"B": program.backend, "__builtins__": __builtins__}
        self.arena = None
        if program.arena_bytes:
            self.arena = program.backend.allocate((program.arena_bytes,), np.uint8)

    def view(self, spec):
        # the backend's own view of its arena memory (a device backend's is not NumPy's)
        return self.p.backend.arena_view(self.arena, spec.offset, spec.shape, spec.dtype)

    def last_reads(self) -> dict[int, int]:
        """Slot -> index of the instruction after which nothing reads it (outputs never)."""
        last = {}
        for i, ins in enumerate(self.p.instructions):
            for s in ins.inputs:
                last[s] = i
            for s in ins.outputs:
                last.setdefault(s, i)  # written, never read: dropped at once
        for s in self.p.output_slots:
            last.pop(s, None)
        for s in list(self.p.input_slots) + list(self.p.constants):
            last.pop(s, None)  # the caller (or the program) holds those anyway
        return last

    def runner(self, replay: bool = True) -> Callable[..., list]:
        p, ns = self.p, self.ns
        for slot, value in p.constants.items():
            ns[f"s{slot}"] = value
        fn, line_of = self.generate(timed=False)
        return _guard(fn, p, line_of, len(p.input_slots), lambda: self.generate(timed=True),
                      _Replay(self) if replay else None)

    def generate(self, timed: bool, recorded: bool = False) -> tuple[types.FunctionType, list]:
        """The program's function and its line -> instruction map. ``timed``: each kernel
        call is reported to :mod:`..events`' kernel listeners (for a profiler);
        ``recorded``: each instruction's native calls are recorded (:mod:`.capture`)."""
        p, ns = self.p, self.ns
        drop_after: dict[int, list[int]] = {}
        for slot, i in self.last_reads().items():
            drop_after.setdefault(i, []).append(slot)
        args = ", ".join(f"s{s}" for s in p.input_slots)
        name = "program_timed" if timed else "program_recorded" if recorded else "program"
        lines = [f"def {name}({args}):"]
        if recorded:
            ns["_R"] = capture.RECORDING
        line_of = []  # generated line number -> instruction index
        if timed:
            ns["_now"], ns["_ran"], ns["P"] = perf_counter_ns, kernel_ran, p.name
        for i, ins in enumerate(p.instructions):
            ns[f"k{i}"] = ins.kernel
            call = ["B"] + [f"s{s}" for s in ins.inputs]
            if isinstance(ins.out, int):  # an input's own buffer, if the caller's is writeable
                ns["W"] = _writeable
                call.append(f"out=W(s{ins.out})")
            elif isinstance(ins.out, tuple):  # a multi-result kernel's: one per result
                ns["W"] = _writeable
                call.append("out=(" + "".join("None, " if s is None else f"W(s{s}), "
                                              for s in ins.out) + ")")
            elif ins.out is not None:
                if f"o{i}" not in ns:
                    ns[f"o{i}"] = self.view(ins.out)
                call.append(f"out=o{i}")
            for k, v in () if ins.bound else ins.params.items():
                ns[f"p{i}_{k}"] = v
                call.append(f"{k}=p{i}_{k}")
            target = ", ".join(f"s{s}" for s in ins.outputs)
            if ins.multiple_results:
                target = (target + ",") if len(ins.outputs) == 1 else target or "_"
            if timed:
                ns[f"n{i}"] = ins.name or "kernel"
                lines.append("    _t = _now()")
                line_of.append(i)
            if recorded:
                lines.append(f"    _R[0].begin({i})")
                line_of.append(i)
            lines.append(f"    {target} = k{i}({', '.join(call)})")
            line_of.append(i)
            if recorded:
                ns[f"rn{i}"], ns[f"rv{i}"] = ins.name, _returns_view(p.backend, ins.name)
                read = "".join(f"s{s}, " for s in ins.inputs)
                wrote = "".join(f"s{s}, " for s in ins.outputs)
                lines.append(f"    _R[0].end({i}, rn{i}, ({read}), ({wrote}), rv{i})")
                line_of.append(i)
            if timed:
                lines.append(f"    _ran(n{i}, _t, _now(), P)")
                line_of.append(i)
            dead = drop_after.get(i)
            if dead:
                lines.append(f"    del {', '.join(f's{s}' for s in dead)}")
                line_of.append(i)
        lines.append(f"    return [{', '.join(f's{s}' for s in p.output_slots)}]")
        source = "\n".join(lines) + "\n"
        filename = f"<sporeling program {p.name}{' timed' if timed else ''}" \
                   f"{' recorded' if recorded else ''} #{id(p):x}>"
        code = compile(source, filename, "exec")
        _remember_source(filename, source)
        exec(code, ns)
        return ns[name], line_of


def _returns_view(backend, primitive: str) -> bool:
    try:
        return backend.kernel_memory(primitive).kind == "view"
    except Exception:  # noqa: BLE001 -- no kernel by that name (a lowering rule's call)
        return False


def _writeable(buffer):
    flags = getattr(buffer, "flags", None)
    return buffer if flags is None or flags.writeable else None


_SOURCES: collections.deque = collections.deque()
_MAX_SOURCES = 512


def _remember_source(filename: str, source: str) -> None:
    """Keep a generated program's text in linecache so tracebacks show its lines. Old
    entries are dropped here, never from a finalizer: a garbage collection inside
    ``linecache.checkcache``'s loop would remove a key it is about to read."""
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    _SOURCES.append(filename)
    while len(_SOURCES) > _MAX_SOURCES:
        linecache.cache.pop(_SOURCES.popleft(), None)


def _guard(fn: types.FunctionType, program: Program, line_of: list, n_inputs: int,
           make_timed: Callable[[], tuple], replay: "_Replay | None"):
    # The arena is the program's: a second call while one runs (another thread, or a
    # kernel calling back into this program) gets a copy of the runner with its own arena.
    # While a profiler listens, the timed twin (made on first need) runs instead. A
    # replayable program runs as one native function (see .replay) once it is recorded.
    busy = threading.Lock()
    spare: list = []
    timed: list = []

    def python(inputs, variant=None):
        code, lines = variant or (fn, line_of)
        if _kernel_listeners:
            if not timed:
                timed.extend(make_timed())
            code, lines = timed
        try:
            return code(*inputs)
        except Exception as exc:
            error = _explain(exc, code, program, lines)
            if error is exc:
                raise
            raise error from exc

    def runner(*inputs):
        if len(inputs) != n_inputs:
            raise ExecutionError("wrong number of program inputs", op=program.name,
                                 expected=n_inputs, got=len(inputs))
        if not busy.acquire(blocking=False):
            if not spare:
                spare.append(_Builder(program).runner(replay=False))
            return spare[0](*inputs)
        try:
            if replay is not None and replay.pending and not _kernel_listeners:
                return replay.run(inputs, python)
            return python(inputs)
        finally:
            busy.release()
    runner.__name__ = runner.__qualname__ = f"run_{program.name}"
    runner.program = program
    runner.replay = replay
    return runner


def _failed_at(exc: Exception, fn, line_of: list):
    """(instruction index, the generated frame) where ``exc`` left the program's code."""
    tb, hit = exc.__traceback__, None
    while tb is not None:
        if tb.tb_frame.f_code is fn.__code__:
            hit = tb
        tb = tb.tb_next
    return (None, None) if hit is None else (line_of[hit.tb_lineno - 2], hit.tb_frame)


def _explain(exc: Exception, fn, program: Program, line_of: list) -> Exception:
    """The error to raise: a kernel's own SporelingError, given the instruction's source
    line if it had none; otherwise an :class:`ExecutionError` naming the failed
    instruction and its operands' shapes."""
    index, frame = _failed_at(exc, fn, line_of)
    if index is None:
        return exc
    ins = program.instructions[index]
    where = ins.where or f"{program.name}, instruction {index} ({ins.name or 'kernel'})"
    if isinstance(exc, SporelingError):
        if exc.where is None:
            exc.where = where
            exc.args = (exc._compose(exc.detail),)
        return exc
    values = {**fn.__globals__, **frame.f_locals}
    shapes = ", ".join(f"{np.dtype(getattr(v, 'dtype', type(v)))}{list(np.shape(v))}"
                       for v in (values.get(f"s{s}") for s in ins.inputs))
    return ExecutionError(f"kernel failed: {type(exc).__name__}: {exc}", op=ins.name or None,
                          where=where, got=f"operands {shapes}" + (
                              f" with {ins.params}" if ins.params else ""))
