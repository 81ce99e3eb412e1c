"""Liveness over a lowered instruction list: where each value is defined, where it is last
read, which buffers it may alias, and so how long each buffer must live.

A step is an instruction seen by the planner: the values it reads and writes (ints) and how
its kernel treats memory (``kind``, see :mod:`.tables`). A view's reads of its base count
as reads of the base: the *root* of a value is the buffer its memory belongs to, and a
buffer lives until the last read of any value rooted in it.

    >>> steps = [Step((0,), (1,), "out"), Step((1,), (2,), "view"), Step((2,), (3,), "out")]
    >>> live = analyse(steps, outputs=(3,))
    >>> live.defined[1], live.last_use[1], live.end[1]   # 1 is read last at 1, via 2 at 2
    (0, 1, 2)
    >>> sorted(live.roots[2]), sorted(live.escaping)
    ([1], [3])
"""
from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Step", "Liveness", "analyse", "KINDS"]

KINDS = ("out", "view", "fresh", "outs", "opaque")
"""``out``: writes a fresh result into ``out=`` (plannable); ``view``: returns a view of its
inputs; ``fresh``: allocates its results itself; ``outs``: allocates its results itself
unless given Parameters' buffers (see :mod:`.updates`); ``opaque``: unknown, may alias
inputs."""


@dataclass(frozen=True)
class Step:
    """One instruction for the planner: ``outputs = kernel(*inputs)``."""
    inputs: tuple
    outputs: tuple
    kind: str = "opaque"
    in_place: tuple = ()  # input positions ``out`` may share memory with (kind "out"; "outs":
    # a tuple of them per result)

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"step kind must be one of {KINDS}, got {self.kind!r}")


@dataclass
class Liveness:
    """``defined[v]``: the step writing ``v`` (-1: a graph input or constant);
    ``last_use[v]``: the last step reading ``v`` (``len(steps)`` for a graph output);
    ``roots[v]``: the buffers ``v`` may view; ``end[r]``: the last step at which buffer
    ``r`` is read, directly or through a view; ``escaping``: buffers the outputs may view."""
    defined: dict = field(default_factory=dict)
    last_use: dict = field(default_factory=dict)
    roots: dict = field(default_factory=dict)
    end: dict = field(default_factory=dict)
    escaping: frozenset = frozenset()


def analyse(steps: list[Step], outputs) -> Liveness:
    """Liveness of every value of ``steps``, whose results are the values ``outputs``."""
    live = Liveness()
    defined, last_use, roots = live.defined, live.last_use, live.roots
    for t, step in enumerate(steps):
        for v in step.inputs:
            if v not in roots:  # a graph input or constant
                defined[v], roots[v] = -1, frozenset((v,))
            last_use[v] = t
        if step.kind in ("out", "fresh", "outs"):
            shared = None
        else:
            shared = frozenset().union(*(roots[v] for v in step.inputs))
        for v in step.outputs:
            defined[v] = t
            roots[v] = frozenset((v,)) if shared is None else shared
    done = len(steps)
    for v in outputs:
        if v not in roots:
            defined[v], roots[v] = -1, frozenset((v,))
        last_use[v] = done
    end = live.end
    for v, t in defined.items():
        end.setdefault(v, t)
    for v, t in last_use.items():
        for r in roots[v]:
            if end[r] < t:
                end[r] = t
    live.escaping = frozenset().union(*(roots[v] for v in outputs))
    return live
