"""Thread workers for ``map``: the same chunk protocol as the process pool, in-process.

Useful when the functions release the GIL (NumPy, Pillow decoding) or hold objects that
cannot cross a process boundary. Results come back in submission order.
"""
from __future__ import annotations

import time
import traceback
from collections import deque
from concurrent.futures import ThreadPoolExecutor

from ..errors import WorkerError
from ..randomness import clear_sample, set_sample

__all__ = ["ThreadPool"]


class _ItemFailure(Exception):
    def __init__(self, position: int, src: int, exc: BaseException, text: str):
        super().__init__(position)
        self.position, self.src, self.exc, self.text = position, src, exc, text


class ThreadPool:
    """``n`` threads running ``work`` on chunks of samples."""

    def __init__(self, work, n: int, seed: int, name: str = "map", depth: int = 2,
                 locate=None):
        self.work, self.seed, self.name = work, seed, name
        self.locate = locate or (lambda src: (None, None))
        self.executor = ThreadPoolExecutor(n, thread_name_prefix="sporeling-data")
        self.inflight: deque = deque()
        self.capacity, self.n = n * depth, n
        self.closed = False

    def _chunk(self, epoch, items, inputs):
        start, outs = time.perf_counter(), []
        try:
            for (pos, src), row in zip(items, inputs):
                set_sample(self.seed, epoch, pos)
                try:
                    outs.append(self.work(row))
                except Exception as exc:  # noqa: BLE001 -- re-raised in the consumer
                    raise _ItemFailure(pos, src, exc, traceback.format_exc()) from exc
        finally:
            clear_sample()
        return outs, time.perf_counter() - start

    def can_submit(self) -> bool:
        return len(self.inflight) < self.capacity

    def submit(self, epoch: int, items: list, inputs: list) -> None:
        self.inflight.append((items, epoch,
                              self.executor.submit(self._chunk, epoch, items, inputs)))

    def ready_fraction(self) -> float:
        done = sum(1 for _, _, f in self.inflight if f.done())
        return min(done / self.n, 1.0)

    def next_result(self):
        items, epoch, future = self.inflight.popleft()
        try:
            outs, busy = future.result()
        except _ItemFailure as failure:
            self.close()
            source_index, sample = self.locate(failure.src)
            raise WorkerError(f"{type(failure.exc).__name__}: {failure.exc}", op=self.name,
                              index=failure.position, epoch=epoch,
                              exc_type=type(failure.exc).__name__,
                              worker_traceback=failure.text, source_index=source_index,
                              sample=sample) from failure.exc
        return [pos for pos, _ in items], outs, [], busy

    def drain(self) -> None:
        while self.inflight:
            self.next_result()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            for _, _, future in self.inflight:
                future.cancel()
            self.executor.shutdown(wait=True, cancel_futures=True)
            self.inflight.clear()
