"""The ``local`` communicator: N ranks as threads of one process.

For fast unit tests and for users without MPI. The ranks of a world share a
:class:`LocalWorld`; the n-th collective each member of a group calls meets the others' n-th
in a *round*. The last member to arrive computes every member's result (NumPy releases the GIL
in the heavy parts) and wakes the others. Members that call different collectives in the same
round never complete: their waits end in :class:`CollectiveTimeoutError`, whose message says
what each member called (with ``comm_check`` on, the signature rendezvous -- rounds and
mailboxes of their own -- names the mismatch first). Sends are buffered (a copy is queued), receives wait for a match.

    >>> from sporeling.parallel.comm.local import LocalWorld
    >>> world = LocalWorld(1)
    >>> world.communicator(0).all_gather([1, 2]).tolist()
    [1, 2]
"""
from __future__ import annotations

import functools
import threading
import time

import numpy as np

from ..errors import CommunicatorError, RankFailedError
from .base import WORLD, Communicator
from .handle import DoneHandle, Handle

__all__ = ["LocalWorld", "LocalCommunicator"]

_UFUNCS = {"sum": np.add, "max": np.maximum, "min": np.minimum, "prod": np.multiply}


class _Round:
    """The n-th collective of a group: what each member brought, then what each gets."""

    def __init__(self):
        self.calls: dict[int, tuple] = {}     # member -> (collective, params)
        self.buffers: dict[int, np.ndarray] = {}
        self.results: dict[int, object] | None = None
        self.taken = 0


class _Mailbox:
    """Messages from one member to another with one tag, matched to receives in the order
    both were posted (MPI's non-overtaking rule): receive number k takes message number k."""

    def __init__(self):
        self.messages: dict[int, np.ndarray] = {}
        self.sent = 0
        self.posted = 0


class _LocalGroup:
    def __init__(self, name: str, world_ranks: tuple[int, ...]):
        self.name, self.world_ranks = name, world_ranks
        self.next_round = [0] * len(world_ranks)
        self.rounds: dict[int, _Round] = {}
        self.mailboxes: dict[tuple[int, int, int], _Mailbox] = {}  # key: (src, dst, tag)
        self.signatures: _LocalGroup | None = None  # comm_check's own rendezvous (lazily)


class LocalWorld:
    """The state ``size`` thread-ranks share; ``communicator(r)`` is rank r's world view."""

    def __init__(self, size: int):
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise CommunicatorError("bad world size", op="local", expected="an int >= 1",
                                    got=repr(size))
        self.size = size
        self.cond = threading.Condition()
        self.groups: dict[str, _LocalGroup] = {WORLD: _LocalGroup(WORLD, tuple(range(size)))}
        self.failed: tuple[int, BaseException] | None = None  # the first rank that raised

    def fail(self, rank: int, exc: BaseException) -> None:
        """Record that ``rank`` raised: every wait of the other ranks ends at once."""
        with self.cond:
            if self.failed is None:
                self.failed = (rank, exc)
            self.cond.notify_all()

    def communicator(self, rank: int) -> "LocalCommunicator":
        return LocalCommunicator(self, self.groups[WORLD], rank)


class _LocalHandle(Handle):
    def __init__(self, collective: str, comm: "LocalCommunicator", ready, finish, detail):
        super().__init__(collective, comm, finish)
        self._ready, self._detail_fn = ready, detail

    def _poll(self) -> bool:
        with self.comm._world.cond:
            return self._ready()

    def _block(self, deadline: float) -> bool:
        world = self.comm._world
        with world.cond:
            world.cond.wait_for(lambda: self._ready() or world.failed is not None,
                                timeout=max(0.0, deadline - time.monotonic()))
            if self._ready():
                return True
            if world.failed is not None:
                rank, exc = world.failed
                raise RankFailedError(f"rank {rank} of the local world raised "
                                      f"{type(exc).__name__}: {exc}", op=self.collective,
                                      expected="every rank to reach this collective",
                                      got=f"rank {rank} failed while rank {self.comm.rank} "
                                          f"waited")
            return False

    def _detail(self) -> str:
        with self.comm._world.cond:
            return self._detail_fn()


class LocalCommunicator(Communicator):
    """Member ``rank`` of a group of thread-ranks (see :class:`LocalWorld`)."""

    backend = "local"

    def __init__(self, world: LocalWorld, group: _LocalGroup, rank: int):
        super().__init__(rank, len(group.world_ranks), group.name, group.world_ranks)
        self._world, self._group = world, group

    # ---- rounds ---------------------------------------------------------------------------
    def _collective(self, collective: str, params: tuple, buf, compute, *,
                    signatures: bool = False) -> Handle:
        """Join this member's next round; ``compute(buffers) -> {member: result}`` runs once,
        in the last member to arrive. ``signatures``: a round of the group's signature
        rendezvous (comm_check), which completes whatever each member called."""
        world, group, me = self._world, self._group, self.rank
        with world.cond:
            if signatures:
                if group.signatures is None:
                    group.signatures = _LocalGroup(group.name, group.world_ranks)
                group = group.signatures
            number = group.next_round[me]
            group.next_round[me] += 1
            rnd = group.rounds.setdefault(number, _Round())
            rnd.calls[me], rnd.buffers[me] = (collective, params), buf
            matched = signatures or len(set(rnd.calls.values())) == 1
            if len(rnd.calls) == self.size and matched:
                rnd.results = compute([rnd.buffers[m] for m in range(self.size)])
                rnd.buffers.clear()
                world.cond.notify_all()

        def finish():
            with world.cond:
                result = rnd.results.pop(me)
                rnd.taken += 1
                if rnd.taken == self.size:
                    del group.rounds[number]
            return result

        def detail():
            called = ", ".join(f"rank {m}: {c}{p if p else ''}"
                               for m, (c, p) in sorted(rnd.calls.items()))
            missing = sorted(set(range(self.size)) - set(rnd.calls))
            text = f"collective #{number} of the group; called so far: {called}"
            if missing:
                text += f"; not called by rank(s) {', '.join(map(str, missing))}"
            elif len(set(rnd.calls.values())) > 1:
                text += " (the members called different collectives)"
            return text
        return _LocalHandle(collective, self, lambda: rnd.results is not None, finish, detail)

    def _start_all_reduce(self, buf, op, out):
        ufunc, n = _UFUNCS[op], self.size

        def compute(bufs):
            total = functools.reduce(lambda a, b: ufunc(a, b, out=a), bufs[1:], bufs[0].copy())
            return {m: (total if m == 0 else total.copy()) for m in range(n)}
        handle = self._collective("all_reduce", (op, buf.shape, buf.dtype.str), buf, compute)
        if out is not None:  # every member has brought its buffer before any result is read
            inner = handle._finish
            handle._finish = lambda: np.copyto(out, inner()) or out
        return handle

    def _start_all_gather(self, buf):
        n = self.size
        return self._collective("all_gather", (buf.shape, buf.dtype.str), buf,
                                lambda bufs: {m: np.stack(bufs) for m in range(n)})

    def _start_reduce_scatter(self, buf, op):
        ufunc, n = _UFUNCS[op], self.size

        def compute(bufs):
            total = functools.reduce(lambda a, b: ufunc(a, b, out=a), bufs[1:], bufs[0].copy())
            return {m: total[m].copy() for m in range(n)}
        return self._collective("reduce_scatter", (op, buf.shape, buf.dtype.str), buf, compute)

    def _start_broadcast(self, buf, root):
        n = self.size
        return self._collective("broadcast", (root, buf.shape, buf.dtype.str), buf,
                                lambda bufs: {m: bufs[root].copy() for m in range(n)})

    def _start_all_to_all(self, buf):
        n = self.size
        return self._collective("all_to_all", (buf.shape, buf.dtype.str), buf,
                                lambda bufs: {m: np.stack([b[m] for b in bufs]) for m in range(n)})

    def _start_signature_gather(self, sig, called):
        n = self.size
        return self._collective(called, (), sig,
                                lambda bufs: {m: np.stack(bufs) for m in range(n)},
                                signatures=True)

    def _signature_view(self) -> "LocalCommunicator":
        """This member on the group's signature rendezvous (its own rounds and mailboxes)."""
        with self._world.cond:
            if self._group.signatures is None:
                self._group.signatures = _LocalGroup(self._group.name, self._group.world_ranks)
        return LocalCommunicator(self._world, self._group.signatures, self.rank)

    def _start_signature_send(self, sig, dest, tag):
        return self._signature_view()._start_send(sig, dest, tag)

    def _start_signature_recv(self, source, tag):
        from .check import SIGNATURE_WORDS
        return self._signature_view()._start_recv((SIGNATURE_WORDS,), np.dtype(np.int64),
                                                  source, tag)

    def _start_barrier(self):
        n = self.size
        return self._collective("barrier", (), None, lambda bufs: {m: None for m in range(n)})

    # ---- point to point -----------------------------------------------------------------------
    def _start_send(self, buf, dest, tag):
        with self._world.cond:
            box = self._group.mailboxes.setdefault((self.rank, dest, tag), _Mailbox())
            box.messages[box.sent] = buf.copy()
            box.sent += 1
            self._world.cond.notify_all()
        return DoneHandle("send", self)

    def _start_recv(self, shape, dtype, source, tag):
        cond = self._world.cond
        with cond:
            box = self._group.mailboxes.setdefault((source, self.rank, tag), _Mailbox())
            ticket = box.posted
            box.posted += 1

        def finish():
            with cond:
                got = box.messages.pop(ticket)
            if got.shape != shape or got.dtype != dtype:
                raise CommunicatorError("received array does not match", op="recv",
                                        expected=f"shape {shape} {dtype} from rank {source}",
                                        got=f"shape {got.shape} {got.dtype}")
            return got
        detail = lambda: f"no message from rank {source} with tag {tag}"  # noqa: E731
        return _LocalHandle("recv", self, lambda: box.sent > ticket, finish, detail)

    # ---- groups ------------------------------------------------------------------------------
    def _create_group(self, name, ranks):
        world_ranks = tuple(self.world_ranks[r] for r in ranks)
        with self._world.cond:
            group = self._world.groups.get(name)
            if group is None:
                group = self._world.groups[name] = _LocalGroup(name, world_ranks)
            elif group.world_ranks != world_ranks:
                raise CommunicatorError(f"group {name!r} exists with other ranks",
                                        op="create_group", expected=list(group.world_ranks),
                                        got=list(world_ranks))
        if self.rank not in ranks:
            return None
        return LocalCommunicator(self._world, group, ranks.index(self.rank))
