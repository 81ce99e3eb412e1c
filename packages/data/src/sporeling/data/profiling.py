"""Per-operation timing: which stage of a pipeline is the bottleneck.

Every iteration records, per operation, the rows it produced and the time the consumer spent
waiting in it (inclusive of the operations upstream). The report subtracts the upstream
time to give each operation's own time, and adds, for parallel ``map`` operations, the time
its workers computed and how full its result queue was when the consumer asked (a queue
that is always empty means the workers cannot keep up: that map is the bottleneck; one that
is always full means something downstream is slower)::

    >>> import numpy as np
    >>> from sporeling.data import NumpySlicesDataset
    >>> ds = NumpySlicesDataset(np.arange(10), shuffle=False).map(lambda x: x * 2).batch(5)
    >>> _ = list(ds)
    >>> report = ds.profile_report()
    >>> [s.name for s in report.stages]
    ['NumpySlicesDataset', 'Map', 'Batch']
    >>> report.stages[1].rows
    10
"""
from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["OpStats", "StageReport", "ProfileReport"]


@dataclass
class OpStats:
    """Counters one operation accumulates during an iteration (all epochs of it)."""

    name: str
    rows: int = 0
    time: float = 0.0                 # consumer's time inside this op, upstream included
    workers: int = 0
    worker_time: float = 0.0          # summed compute time reported by workers
    queue_filled: float = 0.0         # sum over pulls of (ready results / capacity)
    queue_pulls: int = 0
    children: list = field(default_factory=list)


@dataclass(frozen=True)
class StageReport:
    """One operation's line of a :class:`ProfileReport`."""

    name: str
    rows: int
    self_time: float
    rows_per_s: float
    workers: int
    worker_time: float
    queue_occupancy: float | None

    @property
    def cost(self) -> float:
        """Seconds of wall time this stage needs: its own time, or for a parallel stage its
        workers' time divided among them, whichever is larger."""
        parallel = self.worker_time / self.workers if self.workers else 0.0
        return max(self.self_time, parallel)


class ProfileReport:
    """Stages from source to output; ``str()`` renders a table, ``bottleneck`` names the
    stage with the largest cost."""

    def __init__(self, stages: list[StageReport], wall: float):
        self.stages, self.wall = stages, wall

    @classmethod
    def from_stats(cls, root: OpStats, wall: float) -> "ProfileReport":
        order: list[OpStats] = []

        def visit(node: OpStats) -> None:
            for child in node.children:
                visit(child)
            order.append(node)

        visit(root)
        stages = []
        for s in order:
            own = max(s.time - sum(c.time for c in s.children), 0.0)
            occupancy = s.queue_filled / s.queue_pulls if s.queue_pulls else None
            busy = max(own, s.worker_time / s.workers if s.workers else 0.0)
            stages.append(StageReport(s.name, s.rows, own, s.rows / busy if busy > 0 else 0.0,
                                      s.workers, s.worker_time, occupancy))
        return cls(stages, wall)

    @property
    def bottleneck(self) -> StageReport | None:
        return max(self.stages, key=lambda s: s.cost) if self.stages else None

    def __str__(self) -> str:
        head = f"{'stage':<24} {'rows':>8} {'own s':>8} {'rows/s':>10} {'workers':>7} " \
               f"{'worker s':>9} {'queue':>6}"
        lines = [head, "-" * len(head)]
        for s in self.stages:
            queue = f"{s.queue_occupancy:6.0%}" if s.queue_occupancy is not None else "     -"
            lines.append(f"{s.name:<24} {s.rows:>8} {s.self_time:>8.3f} {s.rows_per_s:>10.0f} "
                         f"{s.workers or '-':>7} {s.worker_time:>9.3f} {queue}")
        neck = self.bottleneck
        if neck is not None:
            lines.append(f"wall {self.wall:.3f} s; bottleneck: {neck.name}")
        return "\n".join(lines)

    __repr__ = __str__
