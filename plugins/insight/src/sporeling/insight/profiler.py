"""``Profiler``: per-op kernel times and the memory pool's timeline (MindSpore's names).

    >>> import numpy as np, tempfile
    >>> from sporeling.compiler import ops
    >>> out = tempfile.mkdtemp()
    >>> with Profiler(output_path=out) as prof:
    ...     y = ops.sum(ops.tanh(np.ones((64, 64), np.float32)))
    >>> prof.op_table()[0]["op"] in ("tanh", "sum")
    True
    >>> paths = prof.analyse()          # <out>/profiler/trace.json (Perfetto), op_summary.csv
    >>> sorted(paths)
    ['op_summary', 'trace']

While a profiler runs it listens to :mod:`sporeling.runtime.events`: every kernel of
PyNative mode (each op bound eagerly, forward and backward) and every instruction of a
Graph-mode program is timed, and every allocation and free of a memory pool records the
pool's bytes in use and its peak. Fragmentation (``1 - largest free extent / free bytes``,
from ``pool.stats()``) is sampled between kernels at most every ``memory_sample_ms`` and when
the profiler stops. Only one profiler runs at a time.
"""
from __future__ import annotations

import os
import weakref
from pathlib import Path
from threading import get_ident
from time import perf_counter_ns

from sporeling.core import SporelingError
from sporeling.runtime import events

from .trace import chrome_trace, op_table, write_op_csv, write_trace

__all__ = ["Profiler", "ProfilerError"]

_ACTIVE: list = []  # the running profiler (at most one)
_NEVER = 1 << 62


class ProfilerError(SporelingError, RuntimeError):
    """Two profilers at once, or a bad argument."""


class Profiler:
    """Args:
        output_path: folder for :meth:`analyse`'s files (written under ``profiler/``).
        profile_memory: record the memory pools' timeline too (default True).
        start_profile: start now (default True); otherwise call :meth:`start`.
        memory_sample_ms: least time between two fragmentation samples (each reads
            ``pool.stats()``, tens of µs: the default keeps that near one per training step).
    """

    def __init__(self, output_path: str | os.PathLike = "./data", *, profile_memory: bool = True,
                 start_profile: bool = True, memory_sample_ms: float = 10.0):
        if memory_sample_ms < 0:
            raise ProfilerError("bad memory_sample_ms", op="Profiler",
                                expected="a number of milliseconds >= 0",
                                got=memory_sample_ms)
        self.output_path = Path(output_path)
        self.profile_memory = bool(profile_memory)
        self._sample_ns = int(memory_sample_ms * 1e6)
        self.kernels: list[tuple] = []   # (name, start_ns, end_ns, program, thread id)
        self.memory: list[tuple] = []    # (time_ns, pool name, in_use, peak)
        self.fragmentation: list[tuple] = []  # (time_ns, pool name, fraction, largest, free)
        self._pools: dict[int, weakref.ref] = {}  # id -> pool, for fragmentation samples
        self._last_pool = None
        self._next_sample = _NEVER  # until a pool is seen
        self.origin_ns: int | None = None
        self.running = False
        if start_profile:
            self.start()

    # ---- collecting ----------------------------------------------------------------------

    def start(self) -> None:
        """Begin listening (records add to what earlier start/stop rounds recorded)."""
        if self.running:
            return
        if _ACTIVE:
            raise ProfilerError("another profiler is running", op="Profiler.start",
                                expected="one profiler at a time",
                                got=f"one writing to {_ACTIVE[0].output_path}",
                                hint="stop it first")
        _ACTIVE.append(self)
        if self.origin_ns is None:
            self.origin_ns = perf_counter_ns()
        self.running = True
        events.add_kernel_listener(self._on_kernel)
        if self.profile_memory:
            events.add_memory_listener(self._on_memory)

    def stop(self) -> None:
        """Stop listening; takes a last fragmentation sample of every pool seen."""
        if not self.running:
            return
        events.remove_kernel_listener(self._on_kernel)
        events.remove_memory_listener(self._on_memory)
        self.running = False
        _ACTIVE.remove(self)
        self._last_pool = None  # no reference kept to a pool once stopped
        if self.profile_memory:
            self._sample_pools()

    def __enter__(self) -> "Profiler":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    # The two listeners run for every kernel and every allocation: append a tuple, little else.
    def _on_kernel(self, name, start_ns, end_ns, program) -> None:
        self.kernels.append((name, start_ns, end_ns, program, get_ident()))
        if end_ns >= self._next_sample:
            self._sample_pools()

    def _on_memory(self, pool, delta, in_use, peak) -> None:
        # May run under the pool's lock: record numbers only, never call the pool here.
        if pool is not self._last_pool:
            self._last_pool = pool
            ref = self._pools.get(id(pool))
            if ref is None or ref() is not pool:  # new (or a dead pool's id reused)
                self._pools[id(pool)] = weakref.ref(pool)
                self._next_sample = min(self._next_sample, perf_counter_ns())
        self.memory.append((perf_counter_ns(), pool.name, in_use, peak))

    def _sample_pools(self) -> None:
        """A fragmentation sample of each pool seen (``pool.stats()``: between kernels,
        never inside a pool call)."""
        for ref in list(self._pools.values()):
            pool = ref()
            if pool is not None:
                s = pool.stats()
                self.fragmentation.append((perf_counter_ns(), pool.name, s.fragmentation,
                                           s.largest_free, s.free))
        self._next_sample = perf_counter_ns() + self._sample_ns

    # ---- results -------------------------------------------------------------------------

    def op_table(self) -> list[dict]:
        """Per op (primitive) and mode: calls, total/mean/min/max µs and share of kernel
        time, the most expensive first."""
        return op_table(self.kernels)

    def trace(self) -> dict:
        """The Chrome trace (``{"traceEvents": [...]}``): an ``X`` event per kernel, ``C``
        counter events for each pool's memory (MB in use, peak) and fragmentation."""
        return chrome_trace(self.kernels, self.memory, self.fragmentation,
                            self.origin_ns or 0)

    def analyse(self) -> dict[str, Path]:
        """Stop (as MindSpore's does), then write ``trace.json`` (open it in
        https://ui.perfetto.dev or chrome://tracing) and ``op_summary.csv`` under
        ``output_path/profiler/``; returns their paths."""
        self.stop()
        folder = self.output_path / "profiler"
        folder.mkdir(parents=True, exist_ok=True)
        return {"trace": write_trace(folder / "trace.json", self.trace()),
                "op_summary": write_op_csv(folder / "op_summary.csv", self.op_table())}
