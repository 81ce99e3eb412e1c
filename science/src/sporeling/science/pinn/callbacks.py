"""Callbacks of PINN training: called after every Adam step and L-BFGS iteration.

``on_step(solver, info)`` gets a :class:`StepInfo`; returning ``True`` stops the current
phase (Adam or L-BFGS). ``on_phase_end(solver, info)`` is called once per phase.
"""
from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field

__all__ = ["StepInfo", "Callback", "LossLogger", "History", "ErrorMonitor", "TargetLoss"]


@dataclass
class StepInfo:
    phase: str                  # "adam" or "lbfgs"
    step: int                   # 1-based within the phase
    loss: float
    terms: dict = field(default_factory=dict)   # loss term name -> unweighted value
    elapsed: float = 0.0        # seconds since the phase started


class Callback:
    def on_step(self, solver, info: StepInfo):
        return None

    def on_phase_end(self, solver, info: StepInfo):
        return None


class LossLogger(Callback):
    """One line every ``every`` steps: phase, step, loss and each term."""

    def __init__(self, every: int = 100, stream=None):
        self.every, self.stream = max(1, int(every)), stream

    def _line(self, info):
        terms = " ".join(f"{k}={v:.3e}" for k, v in info.terms.items())
        print(f"{info.phase} {info.step:6d} loss={info.loss:.4e} {terms} "
              f"({info.elapsed:.1f} s)", file=self.stream or sys.stdout, flush=True)

    def on_step(self, solver, info):
        if info.step % self.every == 0:
            self._line(info)

    def on_phase_end(self, solver, info):
        self._line(info)


class History(Callback):
    """Keeps every step's ``(phase, step, loss, terms)``."""

    def __init__(self):
        self.records: list[StepInfo] = []

    def on_step(self, solver, info):
        self.records.append(info)

    @property
    def losses(self) -> list[float]:
        return [r.loss for r in self.records]


class ErrorMonitor(Callback):
    """Every ``every`` steps evaluates ``error(solver)`` (e.g. the relative L2 error against
    a reference) and records ``(phase, step, seconds since created, error)``; stops the
    phase once the error is at most ``target`` (when given)."""

    def __init__(self, error, every: int = 50, target: float | None = None):
        self.error, self.every, self.target = error, max(1, int(every)), target
        self.records: list[tuple[str, int, float, float]] = []
        self.start = time.perf_counter()
        self.reached_at: float | None = None  # seconds at which target was first reached

    def on_step(self, solver, info):
        if info.step % self.every:
            return None
        err = float(self.error(solver))
        now = time.perf_counter() - self.start
        self.records.append((info.phase, info.step, now, err))
        if self.target is not None and err <= self.target:
            if self.reached_at is None:
                self.reached_at = now
            return True
        return None


class TargetLoss(Callback):
    """Stops a phase once the loss is at most ``loss``."""

    def __init__(self, loss: float):
        self.loss = float(loss)

    def on_step(self, solver, info):
        return info.loss <= self.loss
