"""Handles of started (nonblocking) operations: ``wait(timeout)`` and ``test()``.

Every wait is bounded: ``timeout=None`` means the ``comm_timeout`` context key, and running
past it raises :class:`~sporeling.parallel.errors.CollectiveTimeoutError` naming the
collective, the rank, the group and the elapsed time -- a rank that died or a mismatched
collective ends in that error instead of a hang.
"""
from __future__ import annotations

import time
from typing import Any, Callable

from ..errors import CollectiveTimeoutError

__all__ = ["Handle", "DoneHandle", "PollingHandle"]

POLLS_PER_YIELD = 64
"""Polls between two reads of the clock, each followed by ``sleep(0)`` (a yield of the core).
MPI progresses only inside its calls, so the loop stays tight; but when the ranks outnumber
free cores (oversubscribed, or a busy machine) a rank that never yields keeps its peer off the
core -- MPICH's own blocking waits yield the same way."""
YIELD_S = 1.0
"""After this long the wait is for a late peer: poll every ``SLEEP_S`` instead."""
SLEEP_S = 0.001


_timeout = [-1, 0.0]  # (context version, comm_timeout)


def default_timeout() -> float:
    """The ``comm_timeout`` key, cached per context version (read on every wait; a key at
    its default costs a registry look-up, ~25-70 us here)."""
    from sporeling.core import context_version, get_context
    version = context_version()
    if version != _timeout[0]:
        _timeout[:] = [version, float(get_context("comm_timeout"))]
    return _timeout[1]


class Handle:
    """A started operation of ``comm``. ``wait()`` returns its result (the received array,
    ``None`` for send and barrier); ``test()`` says whether it has finished."""

    def __init__(self, collective: str, comm, finish: Callable[[], Any] = lambda: None):
        self.collective = collective
        self.comm = comm
        self._finish = finish
        self._done = False
        self._result = None

    # what a transport implements -------------------------------------------------------
    def _poll(self) -> bool:
        """Advance the operation; whether it has completed. Never blocks long."""
        raise NotImplementedError

    def _block(self, deadline: float) -> bool:
        """Wait until completion or ``deadline`` (``time.monotonic()``); whether it completed."""
        poll = self._poller()
        start = time.monotonic()
        polls = 0
        while not poll():
            polls += 1
            if polls % POLLS_PER_YIELD:
                continue
            now = time.monotonic()
            if now >= deadline:
                return False
            time.sleep(SLEEP_S if now - start > YIELD_S else 0)
        return True

    def _poller(self) -> Callable[[], bool]:
        """The cheapest zero-argument callable answering ``_poll``."""
        return self._poll

    def _detail(self) -> str:
        """What is known about the peers, for the timeout message."""
        return ""

    def _cancel(self) -> None:
        """Give up the operation after a timeout (best effort)."""

    # the user's side ---------------------------------------------------------------------
    def test(self) -> bool:
        """Whether the operation has finished (advancing it a little)."""
        if not self._done and self._poll():
            self._complete()
        return self._done

    def wait(self, timeout: float | None = None):
        """The operation's result, once finished; waits at most ``timeout`` seconds
        (``None``: the ``comm_timeout`` context key)."""
        if not self._done:
            limit = default_timeout() if timeout is None else float(timeout)
            start = time.monotonic()
            if not self._block(start + limit):
                elapsed = time.monotonic() - start
                detail = self._detail()
                self._cancel()
                raise CollectiveTimeoutError(self.collective, rank=self.comm.rank,
                                             group=self.comm.group, elapsed=elapsed,
                                             timeout=limit, detail=detail)
            self._complete()
        return self._result

    def _complete(self) -> None:
        self._result = self._finish()
        self._done = True
        self._finish = None

    def __repr__(self) -> str:
        state = "done" if self._done else "pending"
        return f"<Handle {self.collective} rank {self.comm.rank} of {self.comm.group!r}: {state}>"


class DoneHandle(Handle):
    """An operation that finished when it started (a buffered local send, size-1 groups)."""

    def __init__(self, collective: str, comm, result=None):
        super().__init__(collective, comm)
        self._done, self._result = True, result

    def _poll(self) -> bool:
        return True


class PollingHandle(Handle):
    """A handle over a ``poll()`` function (``MPI.Request.Test`` and friends)."""

    def __init__(self, collective: str, comm, poll: Callable[[], bool],
                 finish: Callable[[], Any] = lambda: None, cancel: Callable[[], None] = None):
        super().__init__(collective, comm, finish)
        self._poll_fn = poll
        self._cancel_fn = cancel

    def _poll(self) -> bool:
        return self._poll_fn()

    def _poller(self):
        return self._poll_fn  # Request.Test itself: no Python frame per poll

    def _cancel(self) -> None:
        if self._cancel_fn is not None:
            self._cancel_fn()
