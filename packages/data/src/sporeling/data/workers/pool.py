"""Process workers for ``map``: ordered chunks, shared-memory slots, clean shutdown.

Each worker owns ``depth`` slots (shared-memory segments created by this process). Chunks
go to the workers round-robin and come back in submission order, so the output order never
depends on timing. Any failure -- an exception in a user function, a worker that dies --
stops every worker (stop message, then terminate, then kill) and unlinks every segment
before the error reaches the caller.
"""
from __future__ import annotations

import json
import multiprocessing as mp
import os
import signal
from collections import deque
from multiprocessing.connection import wait

from ..errors import DataError, WorkerError
from .shm import Segment, layout_of, read_arrays, write_arrays
from .worker import worker_main

__all__ = ["ProcessPool", "exit_status"]


def exit_status(code: int | None) -> str:
    """A process's exit code in words: ``exit code 3``, ``killed by signal SIGKILL (9)``."""
    if code is None:
        return "exit status unknown: still running"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = "an unknown signal"
        return f"killed by signal {name} ({-code})"
    return f"exit code {code}"

_FIRST_SLOT = 1 << 20


class _Worker:
    def __init__(self, ctx, index, work, seed, fused, skip_corrupt, depth):
        self.conn, child = ctx.Pipe(duplex=True)
        self.process = ctx.Process(target=worker_main, name=f"sporeling-data-worker-{index}",
                                   args=(child, work, seed, os.getpid(), fused, skip_corrupt),
                                   daemon=True)
        self.process.start()
        child.close()
        self.slots = [Segment(_FIRST_SLOT) for _ in range(depth)]
        self.free = deque(range(depth))


class ProcessPool:
    """``n`` worker processes running ``work`` on chunks of samples."""

    def __init__(self, work, n: int, seed: int, *, fused: bool, skip_corrupt: bool,
                 start_method: str, depth: int = 2, name: str = "map", locate=None):
        try:
            ctx = mp.get_context(start_method)
        except ValueError:
            raise DataError("unknown start method", op=name,
                            expected=f"one of {mp.get_all_start_methods()}",
                            got=repr(start_method)) from None
        self.name, self.fused = name, fused
        # source index -> (source_index, sample) for error messages; items carry the index
        self.locate = locate or (lambda src: (None, None))
        self.workers: list[_Worker] = []
        self.inflight: deque = deque()
        self._next = 0
        self.closed = False
        try:
            for i in range(n):
                self.workers.append(_Worker(ctx, i, work, seed, fused, skip_corrupt, depth))
        except BaseException:
            self.close()
            raise
        self.capacity = n * depth

    def can_submit(self) -> bool:
        return len(self.inflight) < self.capacity

    def submit(self, epoch: int, items: list, inputs: list | None = None) -> None:
        """Send a chunk: ``items`` = ``[[position, source_index], ...]``; ``inputs`` one tuple
        of arrays per item (None when the workers read the source)."""
        w = self.workers[self._next]
        self._next = (self._next + 1) % len(self.workers)
        slot = w.free.popleft()
        header = {"slot": slot, "epoch": epoch, "items": items}
        if inputs is not None:
            layouts, end = [], 0
            for row in inputs:
                entries, end = layout_of(row, end, "a map input")
                layouts.append(entries)
            if end > w.slots[slot].size:
                self._grow(w, slot, end)
            for row, entries in zip(inputs, layouts):
                write_arrays(w.slots[slot].buf, row, entries)
            header["layout"] = layouts
        header["shm"] = w.slots[slot].name
        self._send(w, header)
        self.inflight.append((w, slot, items, epoch))

    def ready_fraction(self) -> float:
        """Share of the workers with a finished chunk waiting (queue occupancy)."""
        return sum(1 for w in self.workers if w.conn.poll()) / len(self.workers)

    def next_result(self):
        """The oldest chunk's ``(positions, rows, skipped, busy_seconds)``."""
        w, slot, items, epoch = self.inflight.popleft()
        while True:
            msg = self._receive(w, items, epoch)
            if "need" not in msg:
                break
            self._grow(w, slot, int(msg["need"] * 1.5))
            self._send(w, {"grow": 1, "shm": w.slots[slot].name}, items, epoch)
        if "error" in msg:
            self.close()
            src = next((s for p, s in items if p == msg["index"]), None)
            source_index, sample = self.locate(src)
            raise WorkerError(f"{msg['exc_type']}: {msg['error']}", op=self.name,
                              index=msg["index"], epoch=msg["epoch"],
                              exc_type=msg["exc_type"], worker_traceback=msg["traceback"],
                              hint="the original traceback from the worker process follows",
                              source_index=source_index, sample=sample)
        buf = w.slots[slot].buf
        skipped = {int(k): tuple(v) for k, v in msg["skipped"].items()}
        kept = [k for k in range(len(items)) if k not in skipped]
        if msg["stacked"]:
            blocks = read_arrays(buf, msg["layout"])
            rows = [tuple(b[i] for b in blocks) for i in range(len(kept))]
        else:
            rows = [tuple(read_arrays(buf, entries)) for entries in msg["layout"]]
        w.free.append(slot)
        return [items[k][0] for k in kept], rows, list(skipped.values()), msg["busy"]

    def drain(self) -> None:
        """Receive and drop every chunk still in flight (an epoch left early)."""
        while self.inflight:
            self.next_result()

    def _grow(self, w: _Worker, slot: int, size: int) -> None:
        old = w.slots[slot]
        w.slots[slot] = Segment(max(size, 2 * old.size))
        old.close()

    def _send(self, w: _Worker, header: dict, items=None, epoch: int = -1) -> None:
        try:
            w.conn.send_bytes(json.dumps(header).encode())
        except (BrokenPipeError, OSError):
            if items is None:  # it died computing its oldest chunk in flight, if any
                items, epoch = next(((it, ep) for v, _, it, ep in self.inflight if v is w),
                                    (header.get("items"), header.get("epoch", -1)))
            self._died(w, items, epoch)

    def _receive(self, w: _Worker, items, epoch) -> dict:
        while True:
            ready = wait([w.conn, w.process.sentinel], timeout=5.0)
            if w.conn in ready or w.conn.poll():
                try:
                    return json.loads(w.conn.recv_bytes())
                except (EOFError, OSError):
                    self._died(w, items, epoch)
            if w.process.sentinel in ready:
                self._died(w, items, epoch)

    def _died(self, w: _Worker, items=None, epoch=-1):
        # the pipe can close before the process is reaped: wait for its exit status
        w.process.join(timeout=2.0)
        how = exit_status(w.process.exitcode)
        self.close()
        first, src = items[0] if items else (-1, None)
        source_index, sample = self.locate(src)
        what = f"the chunk from position {first}" if items else "no chunk"
        raise WorkerError(f"worker process {w.process.name} died ({how}) computing {what}",
                          op=self.name, index=first, epoch=epoch, exc_type="WorkerDied",
                          worker_traceback="(no traceback: the process ended abruptly, e.g. "
                          "killed or crashed in native code)", source_index=source_index,
                          sample=sample)

    def close(self) -> None:
        """Stop every worker and free every segment; safe to call twice."""
        if self.closed:
            return
        self.closed = True
        for w in self.workers:
            try:
                w.conn.send_bytes(b'{"stop": 1}')
            except (BrokenPipeError, OSError):
                pass
        for w in self.workers:
            w.process.join(timeout=2.0)
            if w.process.is_alive():
                w.process.terminate()
                w.process.join(timeout=2.0)
            if w.process.is_alive():
                w.process.kill()
                w.process.join()
            w.conn.close()
            for seg in w.slots:
                seg.close()
        self.inflight.clear()
