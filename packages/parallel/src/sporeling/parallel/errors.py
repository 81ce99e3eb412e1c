"""Errors of ``sporeling.parallel``; each names what was expected, what came and where."""
from __future__ import annotations

from sporeling.core.errors import SporelingError

__all__ = ["ParallelError", "CommunicatorError", "CollectiveTimeoutError", "RankFailedError",
           "CollectiveMismatchError"]


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


class CollectiveMismatchError(CommunicatorError):
    """The ranks of a group called different collectives in turn (another kind, reduction,
    shape, dtype, root or axis), found by the signature check (context key ``comm_check``)
    before any data moved; every rank raises it. For a ``recv`` whose matching ``send``
    carries another dtype or shape, the receiver raises it.

    Carries ``collective`` (this rank's call), ``rank``, ``group``, ``number`` (the
    collective's sequence number in the group; None for send/recv), ``calls`` (rank -> what
    it called and where) and ``differ`` (the fields that differ).
    """

    def __init__(self, collective: str, *, rank: int, group: str, number: int | None,
                 calls: dict[int, str], differ: list[str], expected: str | None = None):
        self.collective, self.rank, self.group, self.number = collective, rank, group, number
        self.calls, self.differ = calls, differ
        what = "called different collectives (collective #{} of the group, " \
            .format(number) if number is not None else "sent and received different arrays ("
        super().__init__(
            f"the ranks of group {group!r} {what}seen by rank {rank}; they differ in "
            f"{', '.join(differ)})", op=collective,
            expected=expected or "the same collective with the same op, dtype, shape and "
                                 "root/axes on every rank",
            got="; ".join(f"rank {r}: {c}" for r, c in sorted(calls.items())),
            hint="no data moved; comm_check='off' (set_auto_parallel_context) skips this "
                 "check")


class RankFailedError(ParallelError):
    """Another rank of the same job raised while this one waited for it (local ranks learn
    it at once; MPI ranks are ended by the launcher instead)."""
