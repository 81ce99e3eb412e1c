"""The ``mpi`` communicator: mpi4py over the MPI library it was built with (the MPICH wheel).

Arrays travel through mpi4py's buffer API (``Iallreduce``, ``Iallgather``, ...), never pickled.
Every operation starts nonblocking and its handle polls ``Request.Test`` until done or
``comm_timeout`` -- so a dead or mismatched peer ends in
:class:`~sporeling.parallel.errors.CollectiveTimeoutError`, not a hang. Reductions use MPI's
SUM/MAX/MIN/PROD on the array's own datatype; everything else moves raw bytes.

``mpi4py`` is imported on first use only: importing it initialises MPI.
"""
from __future__ import annotations

import os
import sys
import zlib

import numpy as np

from ..errors import CommunicatorError
from .base import WORLD, Communicator
from .check import SIGNATURE_WORDS, describe
from .handle import POLLS_PER_YIELD, PollingHandle

__all__ = ["MpiCommunicator", "launched_world_size", "world"]

_LAUNCHER_SIZE_VARS = ("PMI_SIZE", "OMPI_COMM_WORLD_SIZE", "MPI_LOCALNRANKS")


GROUP_TAG = 32_000
"""Tag of ``create_group``'s handshake (user tags stay below ``primitives.GRAD_TAG``)."""


def launched_world_size() -> int:
    """The number of ranks ``mpiexec`` started (from its environment), 1 when not launched."""
    for var in _LAUNCHER_SIZE_VARS:
        value = os.environ.get(var)
        if value and value.isdigit():
            return int(value)
    return 1


MPICH_DEFAULTS = {
    # MPICH's default nonblocking all-reduce for large messages ran 15-20% behind its
    # blocking Allreduce (16 MiB, 2 ranks); reduce-scatter + all-gather (what Allreduce picks
    # for long messages) matches it. A value the user set wins.
    "MPIR_CVAR_IALLREDUCE_INTRA_ALGORITHM": "sched_reduce_scatter_allgather",
}
"""MPI settings applied (unless already in the environment) before MPI initialises."""


def _mpi():
    if "mpi4py.MPI" not in sys.modules:
        for name, value in MPICH_DEFAULTS.items():
            os.environ.setdefault(name, value)
    from mpi4py import MPI
    return MPI


def world() -> "MpiCommunicator":
    """This process's rank of ``MPI.COMM_WORLD`` (initialises MPI)."""
    return MpiCommunicator(_mpi().COMM_WORLD.Dup(), WORLD)


def _bytes(a: np.ndarray) -> np.ndarray:
    return a.reshape(-1).view(np.uint8)


class MpiCommunicator(Communicator):
    """A rank of an ``MPI.Comm`` (a duplicate, so Sporeling's traffic never meets the user's)."""

    backend = "mpi"

    def __init__(self, comm, name: str, world_ranks=None):
        MPI = _mpi()
        if world_ranks is None:
            world_ranks = MPI.Group.Translate_ranks(comm.Get_group(), list(range(comm.size)),
                                                    MPI.COMM_WORLD.Get_group())
        super().__init__(comm.rank, comm.size, name, world_ranks)
        self._ops = {"sum": MPI.SUM, "max": MPI.MAX, "min": MPI.MIN, "prod": MPI.PROD}
        # MPI's arithmetic ops skip C_BOOL; NumPy's ufuncs on bools are these (or, and)
        self._bool_ops = {"sum": MPI.LOR, "max": MPI.LOR, "min": MPI.LAND, "prod": MPI.LAND}
        self._in_place = MPI.IN_PLACE
        self.mpi_comm = comm
        # comm_check's channel: signatures never meet user collectives (own context id)
        self.check_comm = comm.Dup() if comm.size > 1 else None
        self._signature_rows = np.empty((comm.size, SIGNATURE_WORDS), np.int64)

    def _mpi_op(self, op: str, dtype: np.dtype):
        return (self._bool_ops if dtype.char == "?" else self._ops)[op]

    def _handle(self, collective: str, request, finish, keep=()):
        def cancel():
            try:
                request.Cancel()  # MPI cannot cancel collectives; frees what it can
            except _mpi().Exception:  # already complete or not cancellable: nothing to free
                pass
        handle = PollingHandle(collective, self, request.Test, finish, cancel)
        handle._keep = keep  # buffers MPI uses until the request completes
        return handle

    def _start_all_reduce(self, buf, op, out):
        if out is None:
            out = self.empty(buf.shape, buf.dtype)
        send = _mpi().IN_PLACE if np.shares_memory(buf, out) else buf
        req = self.mpi_comm.Iallreduce(send, out, op=self._mpi_op(op, buf.dtype))
        return self._handle("all_reduce", req, lambda: out, (buf, out))

    def _all_reduce_now(self, buf, op, out):
        # both C-contiguous and of one shape: overlapping bounds mean the same buffer
        send = self._in_place if np.may_share_memory(buf, out) else buf
        self.mpi_comm.Allreduce(send, out, op=self._ops[op])

    def _start_all_gather(self, buf):
        out = self.empty((self.size,) + buf.shape, buf.dtype)
        req = self.mpi_comm.Iallgather(_bytes(buf), _bytes(out))
        return self._handle("all_gather", req, lambda: out, (buf, out))

    def _start_reduce_scatter(self, buf, op):
        out = self.empty(buf.shape[1:], buf.dtype)
        req = self.mpi_comm.Ireduce_scatter_block(buf, out, op=self._mpi_op(op, buf.dtype))
        return self._handle("reduce_scatter", req, lambda: out, (buf, out))

    def _start_broadcast(self, buf, root):
        out = self.empty(buf.shape, buf.dtype)
        if self.rank == root:
            np.copyto(out, buf)
        req = self.mpi_comm.Ibcast(_bytes(out), root=root)
        return self._handle("broadcast", req, lambda: out, (out,))

    def _start_all_to_all(self, buf):
        out = self.empty(buf.shape, buf.dtype)
        req = self.mpi_comm.Ialltoall(_bytes(buf), _bytes(out))
        return self._handle("all_to_all", req, lambda: out, (buf, out))

    def _start_send(self, buf, dest, tag):
        req = self.mpi_comm.Isend(_bytes(buf), dest=dest, tag=tag)
        return self._handle("send", req, lambda: None, (buf,))

    def _start_recv(self, shape, dtype, source, tag):
        out = self.empty(shape, dtype)
        req = self.mpi_comm.Irecv(_bytes(out), source=source, tag=tag)
        return self._handle("recv", req, lambda: out, (out,))

    def _start_signature_gather(self, sig, called):
        out = self.empty((self.size,) + sig.shape, sig.dtype)
        req = self.check_comm.Iallgather(_bytes(sig), _bytes(out))
        handle = self._handle("signature check", req, lambda: out, (sig, out))
        handle._detail = lambda: f"this rank called {called}; a rank has not reached it"
        return handle

    def _signatures_now(self, sig, collective, timeout):
        rows = self._signature_rows  # one blocking exchange at a time: one buffer
        request = self.check_comm.Iallgather(sig, rows)
        test = request.Test
        for _ in range(POLLS_PER_YIELD):  # the peers are usually there already
            if test():
                return rows
        handle = PollingHandle(collective, self, test, lambda: rows)
        handle._keep = sig
        handle._detail = lambda: (f"in the signature check (comm_check='on'): this rank "
                                  f"called {describe(sig)}; a rank has not reached it")
        return handle.wait(timeout)

    def _start_signature_send(self, sig, dest, tag):
        req = self.check_comm.Isend(_bytes(sig), dest=dest, tag=tag)
        return self._handle("send", req, lambda: None, (sig,))

    def _start_signature_recv(self, source, tag):
        out = np.empty(SIGNATURE_WORDS, np.int64)
        req = self.check_comm.Irecv(_bytes(out), source=source, tag=tag)
        handle = self._handle("recv", req, lambda: out, (out,))
        handle._detail = lambda: f"no send from rank {source} with tag {tag} announced"
        return handle

    def _start_barrier(self):
        return self._handle("barrier", self.mpi_comm.Ibarrier(), lambda: None)

    def _create_group(self, name, ranks):
        if self.rank not in ranks:
            return None
        self._members_present(name, ranks)
        group = self.mpi_comm.Get_group().Incl(ranks)
        try:
            sub = self.mpi_comm.Create_group(group)
        finally:
            group.Free()
        return MpiCommunicator(sub, name)

    def _members_present(self, name: str, ranks: list[int]) -> None:
        """A bounded handshake before ``MPI_Comm_create_group``, which has no nonblocking
        form: every member reports to the first, which answers once all came -- a member that
        never calls is a :class:`CollectiveTimeoutError`, not a hang; members naming the
        group with other ranks never match (their digest differs)."""
        digest = np.array([zlib.crc32(repr((name, list(ranks))).encode())], np.int64)
        leader = ranks[0]

        def step(handle):  # timeouts name create_group, not its messages
            handle.collective = "create_group"
            return handle.wait()
        if self.rank == leader:
            for r in ranks[1:]:
                got = step(self.irecv((1,), np.int64, r, GROUP_TAG))
                if got[0] != digest[0]:
                    raise CommunicatorError(f"rank {r} creates group {name!r} differently",
                                            op="create_group", expected=f"ranks {ranks}",
                                            got=f"another rank list or name from rank {r}")
            for r in ranks[1:]:
                step(self.isend(digest, r, GROUP_TAG))
        else:
            step(self.isend(digest, leader, GROUP_TAG))
            step(self.irecv((1,), np.int64, leader, GROUP_TAG))

    def close(self) -> None:
        for sub in self.groups.values():
            if sub is not None:
                sub.close()
        self.groups.clear()
        if self.check_comm is not None:
            try:
                self.check_comm.Free()
            except _mpi().Exception:  # MPI already finalized: freed with it
                pass
            self.check_comm = None
        if self.mpi_comm is not None:
            try:
                self.mpi_comm.Free()
            except _mpi().Exception:  # MPI already finalized (interpreter shutdown): freed with it
                pass
            self.mpi_comm = None
