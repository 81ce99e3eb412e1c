"""Whole programs: one run's native calls recorded, so that a backend can replay the whole
step as one native function (see :mod:`.run`; the TVM backend generates it).

A program is replayable when every instruction did all its work in native calls it
recorded here: a compiled function called on arrays (:func:`packed`), a C function of a
library (:func:`extern`) -- and nothing in Python that the replay would skip (a copy, a
NumPy kernel). Kernels say so themselves, so that nothing is replayed by default:

* on the path where a kernel's work is only native calls, it records each call and then
  says :func:`pure`;
* wherever it works in Python instead (copies an operand, runs NumPy's kernel), it says
  :func:`impure` -- that wins over ``pure``;
* a check the kernel makes in Python on what a native call wrote (a label out of range) is
  recorded with :func:`check`: the replay stops there, and the step runs again in Python,
  which raises what it raises.

An instruction that records nothing is taken when its kernel is a view kernel (its memory
kind ``"view"``: a reshape, a transpose) that returned its input or a view of it, and read
no other array (an index read from a tensor).

Recording costs nothing while no program records: every call site tests ``if RECORDING:``
(a list, mutated in place, never rebound).

    >>> import numpy as np
    >>> rec = Recording()
    >>> with rec:
    ...     rec.begin(0)
    ...     a = np.zeros(3)
    ...     if RECORDING:
    ...         packed(print, (a,))
    ...     pure()
    ...     rec.end(0, "kernel", (), (a,), view=False)
    >>> len(rec.calls), rec.why
    (1, None)
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["RECORDING", "Recording", "NativeCall", "Handle", "packed", "extern", "check",
           "pure", "impure"]

RECORDING: list = []
"""The recording in progress, if any (at most one per process)."""


@dataclass(frozen=True)
class Handle:
    """An opaque pointer argument of an :func:`extern` call (a library's object)."""
    address: int


@dataclass(eq=False)
class NativeCall:
    """``kind`` ``"packed"``: ``target`` (a compiled function) called on ``args`` (arrays);
    ``"extern"``: ``target`` is ``(library path, symbol, returns a status)``, ``args`` hold
    arrays (passed as their data's address), :class:`Handle` objects, ints (``int32``) and
    NumPy numbers (of their type), a status is 0 on success; ``"check"``: ``args[0]`` (an
    array) must hold zeros after the calls before it. ``keep`` holds what the arguments
    point into; ``instruction``: the program's instruction that made the call."""
    kind: str
    target: Any
    args: tuple
    keep: Any = None
    instruction: int = -1


class Recording:
    """The native calls of one program run, per instruction; ``why`` says why the program
    cannot be replayed (None: it can)."""

    def __init__(self) -> None:
        self.calls: list[NativeCall] = []
        self.why: str | None = None
        self.thread = threading.get_ident()
        self._pure = False
        self._impure: str | None = None
        self._first = 0

    def __enter__(self) -> "Recording":
        if RECORDING:
            raise RuntimeError("a program is already being recorded")
        RECORDING.append(self)
        return self

    def __exit__(self, *exc) -> None:
        RECORDING.remove(self)

    def begin(self, index: int) -> None:
        """Before instruction ``index``: its calls are those recorded from now on."""
        self._pure, self._impure = False, None
        self._first = len(self.calls)

    def end(self, index: int, name: str, inputs: tuple, results: tuple, view: bool) -> None:
        """After instruction ``index`` (kernel ``name``) returned ``results``: whether its
        work was native (else ``why`` says what was not). ``view``: its kernel returns a
        view of its first input."""
        if self.why is not None:
            return
        where = f"instruction {index} ({name or 'kernel'})"
        if self._impure is not None:
            self.why = f"{where} {self._impure}"
        elif not self._pure and not (len(self.calls) == self._first and
                                     _no_work(inputs, results, view)):
            self.why = f"{where} runs in Python"
        for call in self.calls[self._first:]:
            call.instruction = index

    def add(self, call: NativeCall) -> None:
        self.calls.append(call)

    def mark(self, pure: bool, why: str | None = None) -> None:
        if pure:
            self._pure = True
        elif self._impure is None:
            self._impure = why or "works in Python"


def _no_work(inputs: tuple, results: tuple, view: bool) -> bool:
    """``view``: a view kernel's results are its inputs or views of the first one, at a
    place its parameters say (no other array: a ``getitem`` at an index read from a
    tensor would be replayed at the recorded index)."""
    if not view or any(isinstance(x, np.ndarray) for x in inputs[1:]):
        return False
    for r in results:
        if any(r is x for x in inputs):
            continue
        if not (inputs and isinstance(r, np.ndarray) and
                isinstance(inputs[0], np.ndarray) and r.base is not None and
                np.may_share_memory(r, inputs[0])):
            return False
    return True


def _mine() -> Recording | None:
    rec = RECORDING[0] if RECORDING else None
    return rec if rec is not None and rec.thread == threading.get_ident() else None


def packed(fn, args) -> None:
    """Record ``fn(*args)``, a compiled function's call on arrays (made by the caller)."""
    rec = _mine()
    if rec is not None:
        rec.add(NativeCall("packed", fn, tuple(args)))


def extern(library: str, symbol: str, args, keep=None, status: bool = True) -> None:
    """Record ``symbol(*args)`` of the shared library at ``library`` (made by the caller);
    ``status``: it returns an int, 0 on success (else it returns nothing)."""
    rec = _mine()
    if rec is not None:
        rec.add(NativeCall("extern", (library, symbol, status), tuple(args), keep))


def check(flag: np.ndarray) -> None:
    """Record that the step goes on only while ``flag`` (written by the calls before)
    holds zeros: a replay stops there (the backend says what then happens)."""
    rec = _mine()
    if rec is not None:
        rec.add(NativeCall("check", None, (flag,)))


def pure() -> None:
    """The running kernel did all its work in the native calls it recorded."""
    rec = _mine()
    if rec is not None:
        rec.mark(True)


def impure(why: str = "works in Python") -> None:
    """The running kernel did work in Python (a copy, NumPy's kernel): not replayable."""
    rec = _mine()
    if rec is not None:
        rec.mark(False, why)
