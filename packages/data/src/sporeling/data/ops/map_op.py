"""``map``: functions over columns, inline, in threads or in processes.

Every sample's random state is set from (this map's seed, epoch, the sample's position in
the map's input), whichever thread or process computes it, so results do not depend on the
number of workers. With processes (``python_multiprocessing=True``), input and output arrays
travel through shared memory; headers are JSON (see :mod:`sporeling.data.workers.shm`).
When the map reads a source directly and the workers are forked, each worker reads its
samples from its own copy of the source: only indices travel to it.
"""
from __future__ import annotations

import multiprocessing as mp
import traceback

import numpy as np

from ..columns import as_column
from ..errors import DataError, WorkerError
from ..randomness import clear_sample, draw_seed, set_sample
from ..transforms.compose import fuse
from .base import UnaryOp, column_indices

__all__ = ["Map", "call_user", "as_columns"]


def call_user(fn, args: tuple, index: int, epoch: int, op: str):
    """``fn(*args)``; an exception becomes a WorkerError naming the sample, chained to it."""
    try:
        return fn(*args)
    except WorkerError:
        raise
    except Exception as exc:
        raise WorkerError(f"{type(exc).__name__}: {exc}", op=op, index=index, epoch=epoch,
                          exc_type=type(exc).__name__,
                          worker_traceback=traceback.format_exc()) from exc


def as_columns(result, n: int, op: str) -> tuple:
    """A function's result as a tuple of ``n`` column values (arrays, or dicts of them)."""
    cols = result if isinstance(result, tuple) else (result,)
    if len(cols) != n:
        raise DataError("a function returned the wrong number of columns", op=op,
                        expected=f"{n} (one per output column)", got=len(cols),
                        hint="name the outputs with output_columns=[...]")
    if n == 1 and type(cols[0]) is np.ndarray:  # the common case, without a generator
        return cols
    return tuple(c if type(c) is np.ndarray else as_column(c) for c in cols)


class _Work:
    """What a worker runs per sample: the operations in turn, then the row assembly.

    A plain object (no closures), so it also travels to spawned workers by pickling -- the
    user's own pipeline, sent from the main process, never data coming back."""

    def __init__(self, ops, n_out, inputs=None, plan=None, source=None):
        self.ops, self.n_out, self.inputs, self.plan, self.source = ops, n_out, inputs, plan, \
            source
        # the usual shape of a map (one input column replaced by the one output) as plain
        # indices, so that a sample costs no generator expressions
        self._one = inputs[0] if inputs is not None and len(inputs) == 1 else None
        self._at = None
        if plan is not None and n_out == 1 and self._one is not None and \
                plan == [(0, k) if k != self._one else (1, 0) for k in range(len(plan))]:
            self._at = self._one

    def apply(self, args: tuple) -> tuple:
        for fn in self.ops:
            args = fn(*args)
            if not isinstance(args, tuple):
                args = (args,)
        return as_columns(args, self.n_out, "map")

    def describe(self, src) -> str | None:
        """Where the source keeps row ``src`` (see ``SourceDataset.describe``)."""
        try:
            return self.source.describe(int(src)) if self.source is not None else None
        except Exception:  # noqa: BLE001 -- a description is a courtesy, never a new error
            return None

    def __call__(self, item):
        if self.source is None:
            return self.apply(item)
        row = self.source._read(int(item))
        one, at = self._one, self._at
        out = self.apply((row[one],) if one is not None else tuple(row[i] for i in self.inputs))
        if at is not None:
            return tuple(row[:at]) + out + tuple(row[at + 1:])
        return tuple(out[j] if kind else row[j] for kind, j in self.plan)


class Map(UnaryOp):
    def __init__(self, child, operations, input_columns, output_columns, workers,
                 processes, chunk_size, start_method):
        super().__init__(child)
        ops = list(operations) if isinstance(operations, (list, tuple)) else [operations]
        bad = [type(f).__name__ for f in ops if not callable(f)]
        if not ops or bad:
            raise DataError("operations must be callables", op="map",
                            expected="a callable or a list of callables", got=bad or ops)
        names = child.column_names
        self.inputs = column_indices(names, input_columns or names[:1], "map")
        outputs = output_columns or [names[i] for i in self.inputs]
        keep = [i for i in range(len(names)) if i not in self.inputs]
        at = min(self.inputs)
        before = [i for i in keep if i < at]
        after = [i for i in keep if i > at]
        # plan: where each output column comes from: (1, j) = function output j, (0, i) = input
        self.plan = [(0, i) for i in before] + [(1, j) for j in range(len(outputs))] + \
            [(0, i) for i in after]
        self.column_names = [names[i] for i in before] + list(outputs) + \
            [names[i] for i in after]
        if len(set(self.column_names)) != len(self.column_names):
            raise DataError("output columns clash with kept columns", op="map",
                            expected="distinct names", got=self.column_names)
        if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                    or workers < 1):
            raise DataError("bad num_parallel_workers", op="map",
                            expected="an int >= 1 or None (inline)", got=repr(workers))
        if chunk_size is not None and (not isinstance(chunk_size, int) or chunk_size < 1):
            raise DataError("bad chunk_size", op="map", expected="an int >= 1 or None",
                            got=repr(chunk_size))
        self.workers, self.processes = workers, bool(processes)
        self.chunk = chunk_size or (64 if processes else 16)  # fewer, larger messages
        self.start_method = start_method or ("fork" if "fork" in mp.get_all_start_methods()
                                             else "spawn")
        self.work = _Work(fuse(ops), len(outputs))  # Normalize + HWC2CHW in one pass
        self.seed = draw_seed()

    def _assemble(self, row, out):
        return tuple(out[j] if kind else row[j] for kind, j in self.plan)

    def _rows(self, run, epoch):
        if self.workers is None:
            yield from self._inline(run, epoch)
        else:
            yield from self._parallel(run, epoch)

    def _source(self):
        """The child when it is a source (its rows then come with their source index)."""
        from ..sources.base import SourceDataset
        kind = type(self.child)
        if not isinstance(self.child, SourceDataset) or (
                kind._rows is not SourceDataset._rows and
                kind._indexed_rows is SourceDataset._indexed_rows):
            return None  # a source with its own _rows and no _indexed_rows: not comparable
        return self.child

    def _input(self, run, epoch):
        """``(source index or -1, row)`` pairs of the child's rows."""
        if self._source() is not None:
            return run.rows(self.child, epoch, indexed=True)
        return ((-1, row) for row in run.rows(self.child, epoch))

    def locate(self, src: int) -> tuple:
        """``(source_index, sample)`` for a WorkerError: the row in the source and where the
        source keeps it, or ``(None, None)`` when the rows do not come from a source."""
        source = self._source()
        if source is None or src is None or src < 0:
            return None, None
        try:
            return src, source.describe(src)
        except Exception:  # noqa: BLE001 -- a description is a courtesy, never a new error
            return src, None

    def _inline(self, run, epoch):
        apply, pick, seed = self.work.apply, self.inputs, self.seed
        try:
            for n, (src, row) in enumerate(self._input(run, epoch)):
                set_sample(seed, epoch, n)
                try:
                    out = apply(tuple(row[i] for i in pick))
                except WorkerError:
                    raise
                except Exception as exc:
                    source_index, sample = self.locate(src)
                    raise WorkerError(f"{type(exc).__name__}: {exc}", op="map", index=n,
                                      epoch=epoch, exc_type=type(exc).__name__,
                                      worker_traceback=traceback.format_exc(),
                                      source_index=source_index, sample=sample) from exc
                yield self._assemble(row, out)
        finally:
            clear_sample()

    def _fused_source(self):
        from ..sources.base import SourceDataset
        child = self.child
        if self.processes and self.start_method == "fork" and \
                isinstance(child, SourceDataset) and child.fork_safe:
            return child
        return None

    def _make_pool(self, source):
        if not self.processes:
            from ..workers.threads import ThreadPool
            return ThreadPool(self.work, self.workers, self.seed, locate=self.locate)
        from ..workers.pool import ProcessPool
        work = self.work if source is None else \
            _Work(self.work.ops, self.work.n_out, self.inputs, self.plan, source)
        return ProcessPool(work, self.workers, self.seed, fused=source is not None,
                           skip_corrupt=source is not None and source.on_error == "skip",
                           start_method=self.start_method, locate=self.locate)

    def _feed(self, run, epoch, source):
        """Chunks of ``(items, inputs, rows)`` for the pool."""
        size = self.chunk
        if source is not None:
            idx = source._indices(epoch).tolist()
            for a in range(0, len(idx), size):
                yield [[a + k, i] for k, i in enumerate(idx[a:a + size])], None, None
            return
        pick, items, inputs, rows = self.inputs, [], [], []
        for n, (src, row) in enumerate(self._input(run, epoch)):
            items.append([n, src])
            inputs.append(tuple(row[i] if isinstance(row[i], np.ndarray) else np.asarray(row[i])
                                for i in pick))
            rows.append(row)
            if len(items) == size:
                yield items, inputs, rows
                items, inputs, rows = [], [], []
        if items:
            yield items, inputs, rows

    def _parallel(self, run, epoch):
        source = self._fused_source()
        pool = run.resource(self, lambda: self._make_pool(source))
        stats = run.stats[id(self)]
        stats.workers = self.workers
        source_stats = run.stats[id(self.child)]
        feed, pending = self._feed(run, epoch, source), []
        done = False
        try:
            while True:
                while not done and pool.can_submit():
                    chunk = next(feed, None)
                    if chunk is None:
                        done = True
                        break
                    items, inputs, rows = chunk
                    pool.submit(epoch, items, inputs)
                    pending.append(rows)
                if not pool.inflight:
                    return
                stats.queue_filled += pool.ready_fraction()
                stats.queue_pulls += 1
                positions, outs, skipped, busy = pool.next_result()
                rows = pending.pop(0)
                stats.worker_time += busy
                for where, reason in skipped:
                    source.skipped[where] = reason
                if source is not None:
                    source_stats.rows += len(outs)
                    yield from outs
                else:
                    for row, out in zip(rows, outs):
                        yield self._assemble(row, out)
        except GeneratorExit:
            self._abandon(run, pool)
            raise
        except BaseException:
            run.drop_resource(self)
            raise

    def _abandon(self, run, pool) -> None:
        """The consumer left the epoch early: drop what is in flight, keep the workers."""
        try:
            pool.drain()
        except Exception:  # noqa: BLE001 -- a failure in an abandoned chunk is moot
            run.drop_resource(self)
