"""One iteration session of a pipeline: its worker pools, its statistics, its epochs.

A ``Run`` lives as long as the iterator that made it. Operations that need resources (a
worker pool) ask the run for them, so every pool is shut down when the iterator finishes,
is closed, raises, or is garbage-collected -- never left behind.
"""
from __future__ import annotations

import time
import weakref

from .profiling import OpStats, ProfileReport

__all__ = ["Run", "report_of"]


def report_of(profile: list) -> ProfileReport:
    """The report of a run's ``[root stats, start, end or None]`` (kept by the dataset after
    the run is gone, so a finished iteration can still be inspected)."""
    stats, start, end = profile
    return ProfileReport.from_stats(stats, (end or time.perf_counter()) - start)


class Run:
    """Resources and per-operation statistics of one iteration of ``root``."""

    def __init__(self, root):
        self.stats: dict[int, OpStats] = {}
        self._resources: list = []
        self._by_node: dict[int, object] = {}
        self.root_stats = self._build(root)
        self.start, self.end = time.perf_counter(), None
        self.closed = False
        root._last_profile = self._profile = [self.root_stats, self.start, None]
        self._finalizer = weakref.finalize(self, Run._close_all, self._resources)

    def _build(self, node) -> OpStats:
        stats = OpStats(type(node).__name__ if not hasattr(node, "_stage_name")
                        else node._stage_name)
        stats.children = [self._build(c) for c in node._children]
        self.stats[id(node)] = stats
        return stats

    def rows(self, node, epoch: int, indexed: bool = False):
        """``node``'s rows for ``epoch``, timed into its statistics; with ``indexed`` (a
        source), ``(source index, row)`` pairs."""
        stats = self.stats[id(node)]
        it = node._indexed_rows(self, epoch) if indexed else node._rows(self, epoch)
        clock = time.perf_counter
        while True:
            t = clock()
            try:
                row = next(it)
            except StopIteration:
                stats.time += clock() - t
                return
            stats.time += clock() - t
            stats.rows += 1
            yield row

    def indices(self, node, epoch: int) -> list:
        """``node``'s row indices for ``epoch`` (see ``Dataset._row_indices``), timed and
        counted into its statistics as its rows would be."""
        stats = self.stats[id(node)]
        t = time.perf_counter()
        found = node._row_indices(self, epoch)
        stats.time += time.perf_counter() - t
        stats.rows += len(found)
        return found

    def resource(self, node, factory):
        """The resource ``node`` keeps for this run (a worker pool), made on first use."""
        found = self._by_node.get(id(node))
        if found is None:
            found = self._by_node[id(node)] = factory()
            self._resources.append(found)
        return found

    def drop_resource(self, node) -> None:
        found = self._by_node.pop(id(node), None)
        if found is not None:
            self._resources.remove(found)
            found.close()

    def report(self) -> ProfileReport:
        return report_of(self._profile)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._profile[2] = time.perf_counter()
            self._by_node.clear()
            self._finalizer()

    @staticmethod
    def _close_all(resources: list) -> None:
        while resources:
            resources.pop().close()
