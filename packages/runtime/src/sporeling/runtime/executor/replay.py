"""A program run as one native function: recorded once, checked once, then replayed.

The program's second call runs its Python code with every instruction's native calls
recorded (:mod:`.capture`). Where every instruction's work was native, the backend makes
one native function that makes those calls again (``backend.native_step``: the TVM
backend generates it), reading the call's inputs where the recorded run read its own and
writing where it wrote: the arena, and the buffers the kernels allocated then, which the
replay keeps. The third call runs both, the program on the inputs and the native step on
copies of them, and compares what they return and what they write into the inputs
(Parameters updated in place): bit for bit, or the program keeps running in Python. From
then on each call is one native call, but where the inputs are not what was recorded
(another layout, a strided array) or a recorded check fails (a label out of range): then
that call runs in Python, which says what is wrong. A profiler listening to kernels sees
the Python program run.

Outputs the program allocated are returned as copies (the native step writes the same
buffers every call); outputs that are inputs (written in place) are the call's own inputs.
"""
from __future__ import annotations

import logging
from typing import Callable

import numpy as np

from .capture import RECORDING, Recording

__all__ = ["Replay", "RECORD_AT", "describe"]

log = logging.getLogger("sporeling.runtime")

RECORD_AT = 2
"""The call that is recorded (the first one compiles, and warms kernels' own caches)."""


class Replay:
    """The native form of one program's runner (see the module's docstring)."""

    def __init__(self, builder) -> None:
        self.builder = builder
        self.program = builder.p
        self.calls = 0
        self.native = None      # the native step, once checked
        self.candidate = None   # the native step made from the recording, not yet checked
        self.why: str | None = None  # why the program runs in Python (None: not known yet)
        make = getattr(self.program.backend, "native_step", None)
        self.pending = make is not None
        if make is None:
            self.why = f"backend {self.program.backend.name!r} makes no native steps"

    def run(self, inputs: tuple, python: Callable) -> list:
        """The outputs of one call: ``python(inputs, variant=None)`` runs the program's
        Python code (``variant``: another generated form of it, with its line map)."""
        if self.native is not None:
            outputs = self.native(inputs)
            return python(inputs) if outputs is None else outputs
        self.calls += 1
        if self.candidate is not None:
            return self._check(inputs, python)
        if self.calls < RECORD_AT or RECORDING:  # another program is being recorded
            return python(inputs)
        rec = Recording()
        with rec:
            outputs = python(inputs, self.builder.generate(timed=False, recorded=True))
        self._make(rec, inputs, outputs)
        # the caller gets its own copies: the native step writes these buffers again
        return [o if not isinstance(o, np.ndarray) or any(o is x for x in inputs)
                else np.array(o, copy=True) for o in outputs]

    def _make(self, rec: Recording, inputs: tuple, outputs: list) -> None:
        made = rec.why
        if made is None:
            try:
                made = self.program.backend.native_step(self.program, rec, inputs, outputs)
            except Exception as error:  # noqa: BLE001 -- a backend's failure: Python runs
                log.warning("program %s: no native step (%s: %s)", self.program.name,
                            type(error).__name__, error)
                made = f"making it failed ({type(error).__name__}: {error})"
        if isinstance(made, str):
            self._give_up(made)
        else:
            self.candidate = made

    def _check(self, inputs: tuple, python: Callable) -> list:
        twins = tuple(np.array(x, copy=True) if isinstance(x, np.ndarray) else x
                      for x in inputs)
        expected = python(inputs)
        candidate, self.candidate = self.candidate, None
        got = candidate(twins)
        if got is None:
            self._give_up("the native step refused the inputs it was made for")
        elif not (_same(got, expected) and _same(twins, inputs)):
            log.warning("program %s: its native step differs from its Python run; it runs "
                        "in Python", self.program.name)
            self._give_up("the native step's results differed from the program's")
        else:
            self.native = candidate
        return expected

    def _give_up(self, why: str) -> None:
        self.why, self.pending = why, False
        log.info("program %s runs in Python: %s", self.program.name, why)


def describe(program) -> str | None:
    """What runs ``program``'s calls: one native step, or Python and why (None: the
    program has not run yet)."""
    runner = program._runner
    if runner is None:
        return None
    replay = runner.replay
    if replay.native is not None:
        calls = getattr(replay.native, "calls", None)
        made = f" of {calls} native calls" if calls is not None else ""
        return f"one native function{made}, from its third call"
    if replay.pending:
        return f"Python; recorded at call {RECORD_AT}, then one native function if its " \
               f"kernels' work is all native"
    return f"Python ({replay.why})"


def _same(a, b) -> bool:
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
            x, y = np.asarray(x), np.asarray(y)
            if x.shape != y.shape or x.dtype != y.dtype or not np.array_equal(
                    x, y, equal_nan=x.dtype.kind in "fc"):
                return False
        elif x is not y and x != y:
            return False
    return True
