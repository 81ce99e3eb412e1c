"""Fair side-by-side timing for the benchmarks.

On this 2-core machine OpenBLAS's worker threads keep spinning about 0.13 s after the last
BLAS call, so a contender timed right after another one's steps loses its cores to them (this
once made PyTorch look 2.5x slower than it is). So: contenders run in **blocks** of many
steps, every block is preceded by ``idle`` seconds of sleep (>= 0.3 s), the order of the
contenders alternates from block to block (forward, then reversed), and each contender's
result is the median per-step time over its blocks with the spread (lowest and highest
block).

On a machine shared with other jobs, ``clock=time.thread_time`` (``CPU_CLOCK``) counts
only this thread's CPU time, so time spent descheduled does not count; it misses what
other threads (BLAS workers) do for the step, so use it for single-threaded work (small
ops, dispatch).

    >>> t = compare({"a": lambda: sum(range(100))}, steps=5, blocks=3, idle=0.0)
    >>> t["a"].median > 0 and t["a"].low <= t["a"].median <= t["a"].high
    True
"""
from __future__ import annotations

import contextlib
import statistics
import time
from dataclasses import dataclass, field
from typing import Any, Callable, ContextManager

__all__ = ["Timing", "compare", "first_call", "ratio", "spread", "print_table", "CPU_CLOCK",
           "clock_named"]

CPU_CLOCK = time.thread_time


def clock_named(name: str) -> Callable[[], float]:
    """``"wall"`` (``perf_counter``) or ``"cpu"`` (this thread's CPU time)."""
    return {"wall": time.perf_counter, "cpu": CPU_CLOCK}[name]


@dataclass
class Timing:
    """Per-step seconds: median over blocks, lowest and highest block, the last result."""
    median: float
    low: float
    high: float
    blocks: list[float] = field(repr=False, default_factory=list)
    last: Any = field(repr=False, default=None)

    def ms(self) -> str:
        """``"3.71 ms (3.65-3.90)"``."""
        return f"{self.median * 1e3:.2f} ms ({self.low * 1e3:.2f}-{self.high * 1e3:.2f})"

    def us(self) -> str:
        return f"{self.median * 1e6:.1f} us ({self.low * 1e6:.1f}-{self.high * 1e6:.1f})"


def compare(contenders: dict[str, Callable[[], Any]], *, steps: int = 20, blocks: int = 7,
            idle: float = 0.3, warmup: int = 2,
            scopes: dict[str, Callable[[], ContextManager]] | None = None,
            clock: Callable[[], float] = time.perf_counter) -> dict[str, Timing]:
    """Time each ``contenders[name]()`` (one step) in ``blocks`` blocks of ``steps`` calls.

    ``scopes[name]()``, when given, is entered around each of that contender's blocks (and
    its warm-up), e.g. ``lambda: sx.context(mode=sx.GRAPH_MODE)``: set once per block, not
    timed per step.
    """
    scopes = scopes or {}
    names = list(contenders)
    samples: dict[str, list[float]] = {n: [] for n in names}
    last: dict[str, Any] = {}
    for name in names:
        with scopes.get(name, contextlib.nullcontext)():
            for _ in range(warmup):
                last[name] = contenders[name]()
    for b in range(blocks):
        for name in (names if b % 2 == 0 else names[::-1]):
            fn = contenders[name]
            time.sleep(idle)
            with scopes.get(name, contextlib.nullcontext)():
                start = clock()
                for _ in range(steps):
                    out = fn()
                elapsed = clock() - start
            samples[name].append(elapsed / steps)
            last[name] = out
    return {n: Timing(statistics.median(s), min(s), max(s), s, last.get(n))
            for n, s in samples.items()}


def first_call(fn: Callable[[], Any], idle: float = 0.3) -> float:
    """Seconds of one call of ``fn`` (a compile, a cache load), after ``idle`` seconds of
    sleep like every timed block."""
    time.sleep(idle)
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def ratio(a: Timing, b: Timing | None) -> str:
    """``a``'s median over ``b``'s as ``"1.23x"`` ("-" without ``b``)."""
    return "-" if b is None else f"{a.median / b.median:.2f}x"


def spread(samples, digits: int = 2, unit: str = "") -> str:
    """``"median (lowest-highest)"`` of ``samples`` (one sample: itself), ``digits`` after
    the point, ``unit`` after the median."""
    if len(samples) == 1:
        return f"{samples[0]:.{digits}f}{unit}"
    return f"{statistics.median(samples):.{digits}f}{unit} " \
           f"({min(samples):.{digits}f}-{max(samples):.{digits}f})"


def print_table(headers: list[str], rows: list[list[str]]) -> None:
    """A plain-text table (Markdown-compatible)."""
    widths = [max(len(str(r[i])) for r in [headers, *rows]) for i in range(len(headers))]
    line = lambda cells: "| " + " | ".join(f"{str(c):<{w}}" for c, w in zip(cells, widths)) + " |"  # noqa: E731
    print(line(headers))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print(line(r))
