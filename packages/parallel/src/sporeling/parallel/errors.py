"""Errors of ``sporeling.parallel``; each names what was expected, what came and where."""
from __future__ import annotations

from sporeling.core.errors import SporelingError

__all__ = ["ParallelError", "CommunicatorError", "CollectiveTimeoutError", "RankFailedError"]


class ParallelError(SporelingError, RuntimeError):
    """Base of the parallel package's errors (bad group, bad rank, init mismatch, ...)."""


class CommunicatorError(ParallelError):
    """A communicator was used wrongly: a collective on mismatched buffers, an unknown
    group, a rank outside the group, no communicator initialised."""


class CollectiveTimeoutError(ParallelError, TimeoutError):
    """A wait on a collective (or send/recv) ran past ``comm_timeout``.

    Carries ``collective``, ``rank``, ``group`` and ``elapsed`` (seconds) as attributes; the
    message names them all. The usual causes: another rank raised or exited, or the ranks
    called different collectives (or the same one with different buffers) in turn.
    """

    def __init__(self, collective: str, *, rank: int, group: str, elapsed: float,
                 timeout: float, detail: str = ""):
        self.collective, self.rank, self.group = collective, rank, group
        self.elapsed, self.timeout = elapsed, timeout
        super().__init__(
            f"rank {rank} of group {group!r} waited {elapsed:.2f} s for {collective}",
            op=collective, expected=f"every rank of {group!r} to join within comm_timeout="
                                    f"{timeout:g} s",
            got=detail or "no completion", hint="another rank may have failed, exited, or "
            "called a different collective; set_auto_parallel_context(comm_timeout=...) "
            "changes the limit")


class RankFailedError(ParallelError):
    """Another rank of the same job raised while this one waited for it (local ranks learn
    it at once; MPI ranks are ended by the launcher instead)."""
