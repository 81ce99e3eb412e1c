"""The :class:`Communicator` contract every transport fulfils.

A communicator is one rank's view of a group: ``rank``, ``size``, ``group`` (its name) and
``world_ranks`` (the world rank of each member). Collectives take NumPy arrays and return new
arrays; each has a nonblocking twin (``i`` prefix) returning a :class:`Handle` whose
``wait(timeout)`` gives the result. Arrays travel as buffers (mpi4py's upper-case API), never
pickled.

A transport implements the ``_start_*`` methods on C-contiguous buffers shaped as documented
there; this class checks arguments, handles axes, ``mean`` and dtypes MPI cannot reduce
(float16, bfloat16 are reduced in float32), so every transport behaves the same.

With the ``comm_check`` context key on (the default), every collective and send/recv with
peers first exchanges a signature of the call (:mod:`.check`, over the transport's
``_start_signature_*`` side channel) and starts only when the ranks agree; a mismatch is
:class:`~sporeling.parallel.errors.CollectiveMismatchError` on every rank.

    >>> from sporeling.parallel.testing import run_local
    >>> import numpy as np
    >>> from sporeling.parallel.comm import current
    >>> def job():
    ...     comm = current()
    ...     return comm.all_reduce(np.array([comm.rank + 1.0])).tolist()
    >>> run_local(2, job)
    [[3.0], [3.0]]
"""
from __future__ import annotations

import functools
from collections import deque

import numpy as np

from sporeling.core import dtypes
from sporeling.core.errors import DTypeError, ShapeError

from ..errors import CommunicatorError
from .check import (SEQUENCE_WORD, AllOf, CheckedHandle, Described, checking, encode,
                    group_id, message_mismatch, mismatch_error, user_line)
from .handle import DoneHandle, Handle

__all__ = ["Communicator", "REDUCE_OPS", "WORLD"]

REDUCE_OPS = ("sum", "mean", "max", "min", "prod")
WORLD = "world"
"""The name of the group of every rank (MindSpore's ``hccl_world_group`` and friends are
accepted as aliases by :func:`sporeling.parallel.get_rank` and the others)."""

_REDUCE_IN_F32 = {dtypes.float16, dtypes.bfloat16}  # MPI has no reduction for these
_MPI_OPS = frozenset(("sum", "max", "min", "prod"))  # "mean" is a sum, then a division
_MPI_REDUCED = frozenset("bBhHiIlLqQpPfdg")  # dtype chars MPI reduces by every op as they are


class Communicator:
    """One rank's handle on a group of ranks. Subclasses implement the ``_start_*`` methods."""

    backend = "?"

    def __init__(self, rank: int, size: int, group: str = WORLD,
                 world_ranks: tuple[int, ...] | None = None):
        self.rank, self.size, self.group = int(rank), int(size), group
        self.world_ranks = tuple(world_ranks) if world_ranks is not None else tuple(range(size))
        self.groups: dict[str, Communicator | None] = {}  # named subgroups made from this one
        self._check_seq = 0                 # collectives checked so far (comm_check)
        self._unstarted: deque = deque()    # checked collectives waiting to start, in order
        self._unposted: dict[tuple[int, int], deque] = {}  # checked recvs by (source, tag)
        self._group_id = group_id(group, self.world_ranks)
        self._all_reduce_signatures: dict[tuple, np.ndarray] = {}  # all_reduce's, by call

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} {self.backend}: rank {self.rank} of {self.size} "
                f"in {self.group!r}>")

    def empty(self, shape, dtype) -> np.ndarray:
        """A new result buffer. Plain NumPy: the runtime pool's blocks are shared anonymous
        mappings, which get no huge pages, and MPI moved data into them ~25% slower (16 MiB
        all_reduce, 26.8 vs 21.2 ms). Callers that repeat a collective pass ``out=``."""
        return np.empty(shape, dtype)

    # ---- what a transport implements --------------------------------------------------
    def _start_all_reduce(self, buf: np.ndarray, op: str, out: np.ndarray | None) -> Handle:
        """Start reducing ``buf`` (op in sum, max, min, prod) over the group into ``out``
        (a new array when None; ``buf`` itself for in place); the handle's result is it."""
        raise NotImplementedError

    _all_reduce_now = None
    """Optional: ``_all_reduce_now(buf, op, out)`` reduces ``buf`` into ``out`` (``buf``
    itself: in place) with a blocking call, once the signature check has found every rank
    in this all-reduce (MPI's blocking all-reduce is faster than its non-blocking one)."""

    def _start_all_gather(self, buf: np.ndarray) -> Handle:
        """Result: shape ``(size, *buf.shape)``, member ``i``'s buffer at index ``i``."""
        raise NotImplementedError

    def _start_reduce_scatter(self, buf: np.ndarray, op: str) -> Handle:
        """``buf`` has shape ``(size, *block)``; result: block ``rank`` reduced over members."""
        raise NotImplementedError

    def _start_broadcast(self, buf: np.ndarray, root: int) -> Handle:
        """Result: a copy of ``root``'s buffer (``buf`` gives shape and dtype elsewhere)."""
        raise NotImplementedError

    def _start_all_to_all(self, buf: np.ndarray) -> Handle:
        """``buf`` has shape ``(size, *block)``; result index ``j`` is member ``j``'s block
        number ``rank``."""
        raise NotImplementedError

    def _start_send(self, buf: np.ndarray, dest: int, tag: int) -> Handle:
        raise NotImplementedError

    def _start_recv(self, shape: tuple, dtype: np.dtype, source: int, tag: int) -> Handle:
        raise NotImplementedError

    def _start_barrier(self) -> Handle:
        raise NotImplementedError

    def _start_signature_gather(self, sig: np.ndarray, called) -> Handle:
        """Start all-gathering the int64 ``sig`` (one signature, see :mod:`.check`) over a
        channel user collectives never use; result shape ``(size, len(sig))``. ``called``
        prints what this rank called (for a timeout's message)."""
        raise NotImplementedError

    def _signatures_now(self, sig: np.ndarray, collective: str, timeout) -> np.ndarray:
        """With ``_all_reduce_now`` (the blocking path): every rank's signature for the
        blocking ``collective`` (rows valid until the next exchange), waiting at most
        ``timeout`` (a timeout names ``collective`` and the signature check)."""
        raise NotImplementedError

    def _start_signature_send(self, sig: np.ndarray, dest: int, tag: int) -> Handle:
        """Start sending a send's signature to ``dest`` on that side channel."""
        raise NotImplementedError

    def _start_signature_recv(self, source: int, tag: int) -> Handle:
        """Start receiving the signature of ``source``'s send with ``tag`` (side channel)."""
        raise NotImplementedError

    def _create_group(self, name: str, ranks: list[int]) -> "Communicator | None":
        """A communicator over ``ranks`` (ranks of this group) for members, None otherwise."""
        raise NotImplementedError

    def close(self) -> None:
        """Release transport resources (subgroups included)."""

    # ---- checks -------------------------------------------------------------------------
    def _array(self, collective: str, x) -> np.ndarray:
        if type(x) is np.ndarray and x.flags.c_contiguous and not x.dtype.hasobject:
            return x  # the common case, checked in few steps (see all_reduce)
        if hasattr(x, "asnumpy"):
            x = x.asnumpy()
        if not isinstance(x, np.ndarray):
            x = np.asarray(x)
        if x.dtype == object:
            raise DTypeError("arrays of Python objects cannot travel as buffers", op=collective,
                             expected="a numeric NumPy array", got=f"dtype {x.dtype}")
        return np.ascontiguousarray(x)

    def _peer(self, collective: str, what: str, r) -> int:
        if isinstance(r, bool) or not isinstance(r, (int, np.integer)) or not 0 <= r < self.size:
            raise CommunicatorError(f"bad {what}", op=collective,
                                    expected=f"a rank of group {self.group!r} "
                                             f"(0..{self.size - 1})", got=repr(r))
        return int(r)

    def _op(self, collective: str, op: str, dtype: np.dtype) -> str:
        if op not in REDUCE_OPS:
            raise CommunicatorError("unknown reduction", op=collective,
                                    expected=f"one of {', '.join(REDUCE_OPS)}", got=repr(op))
        if op == "mean" and dtype.kind not in "fc":
            raise DTypeError("mean needs a floating dtype", op=collective,
                             expected="float16/bfloat16/float32/float64", got=str(dtype))
        if op in ("max", "min") and dtype.kind == "c":
            raise DTypeError(f"{op} of complex numbers (they have no order)", op=collective,
                             expected="a real dtype for max/min", got=str(dtype))
        return op

    def _axis(self, collective: str, x: np.ndarray, axis: int) -> int:
        if not -max(x.ndim, 1) <= axis < max(x.ndim, 1) or x.ndim == 0:
            raise ShapeError("bad axis", op=collective,
                             expected=f"an axis of a {x.ndim}-d array (at least 1-d)",
                             got=f"axis {axis} of shape {x.shape}")
        return axis % x.ndim

    def _blocks(self, collective: str, x: np.ndarray, axis: int) -> np.ndarray:
        """``x`` split along ``axis`` into ``size`` blocks, stacked first (contiguous)."""
        axis = self._axis(collective, x, axis)
        if x.shape[axis] % self.size:
            raise ShapeError(f"axis {axis} does not split over the group", op=collective,
                             expected=f"a length divisible by the group size {self.size}",
                             got=f"shape {x.shape}")
        moved = np.moveaxis(x, axis, 0)
        blocks = moved.reshape((self.size, moved.shape[0] // self.size) + moved.shape[1:])
        return np.ascontiguousarray(blocks)

    def _checked(self, kind: str, start, stage=None, **fields) -> Handle:
        """``start()``'s handle, or -- with ``comm_check`` on and peers to meet -- a handle
        that exchanges this call's signature first and starts only when every rank's
        matches (:mod:`.check`). With ``stage`` (the collective's local work: its result
        buffer, this rank's share in it), ``start(stage())``: the staging runs while the
        signatures travel, so their round trip hides behind work the collective does
        anyway, and nothing moves between ranks before they match."""
        if self.size == 1 or not checking():
            return start(stage()) if stage else start()
        sig = encode(kind, self._check_seq, group_id=self._group_id, line=user_line(),
                     **fields)
        self._check_seq += 1  # numbered from 0, as the local transport's rounds
        check = self._start_signature_gather(sig, Described(sig))
        if stage:
            staged = stage()
            start = functools.partial(start, staged)
        return CheckedHandle(kind, self, check, start)

    # ---- collectives (nonblocking) ----------------------------------------------------------
    def iall_reduce(self, x, op: str = "sum", *, out=None) -> Handle:
        """Start an all-reduce of ``x``; ``wait()`` gives the reduced array (same shape), in
        ``out`` when given (``out=x``: in place; no allocation when repeated)."""
        x = self._array("all_reduce", x)
        op = self._op("all_reduce", op, x.dtype)
        if out is not None:
            self._check_out("all_reduce", out, x)
        if self.size == 1:
            if out is None:
                return DoneHandle("all_reduce", self, x.copy())
            np.copyto(out, x)
            return DoneHandle("all_reduce", self, out)
        def stage():  # this rank's share in the result buffer: MPI's own first step
            if x.dtype in _REDUCE_IN_F32:
                return x.astype(np.float32)
            result = self.empty(x.shape, x.dtype) if out is None else out
            if out is None or out.ctypes.data != x.ctypes.data:  # else out=x: in place
                np.copyto(result, x)
            return result

        def start(result):  # in place: only the peers' data moves now
            handle = self._start_all_reduce(result, "sum" if op == "mean" else op, result)
            return _then(handle, lambda got: _finish_reduction(got, op, x.dtype, self.size,
                                                               out))
        return self._checked("all_reduce", start, stage, op=op, dtype=x.dtype,
                             shape=x.shape)

    def _check_out(self, collective: str, out, like: np.ndarray) -> None:
        if not isinstance(out, np.ndarray) or out.shape != like.shape or \
                out.dtype != like.dtype or not out.flags.c_contiguous or not out.flags.writeable:
            raise ShapeError("bad out buffer", op=collective,
                             expected=f"a writeable C-contiguous {like.dtype} array of shape "
                                      f"{like.shape}",
                             got=f"{type(out).__name__} {getattr(out, 'dtype', '')}"
                                 f"{list(getattr(out, 'shape', ()))}")

    def iall_gather(self, x, axis: int = 0) -> Handle:
        """Start gathering ``x`` from every member, concatenated along ``axis`` in rank order."""
        x = self._array("all_gather", x)
        axis = self._axis("all_gather", x, axis)
        if self.size == 1:
            return DoneHandle("all_gather", self, x.copy())

        def start():
            handle = self._start_all_gather(x)  # (size, *shape)
            if axis == 0:
                return _then(handle, lambda st: st.reshape((-1,) + x.shape[1:]))
            return _then(handle, lambda st: np.concatenate(list(st), axis=axis))
        return self._checked("all_gather", start, dtype=x.dtype, shape=x.shape, p1=axis)

    def ireduce_scatter(self, x, op: str = "sum", axis: int = 0) -> Handle:
        """Start reducing ``x`` over members and keeping block ``rank`` of ``axis``."""
        x = self._array("reduce_scatter", x)
        op = self._op("reduce_scatter", op, x.dtype)
        blocks = self._blocks("reduce_scatter", x, axis)
        axis = self._axis("reduce_scatter", x, axis)
        if x.dtype.name in _REDUCE_IN_F32:
            blocks = blocks.astype(np.float32)

        def start():
            if self.size == 1:
                handle = DoneHandle("reduce_scatter", self, blocks[0].copy())
            else:
                handle = self._start_reduce_scatter(blocks, "sum" if op == "mean" else op)
            return _then(handle, lambda out: np.moveaxis(
                _finish_reduction(out, op, x.dtype, self.size), 0, axis))
        return self._checked("reduce_scatter", start, op=op, dtype=x.dtype, shape=x.shape,
                             p1=axis)

    def ibroadcast(self, x, root: int = 0) -> Handle:
        """Start sending ``root``'s ``x`` to every member (others pass a like-shaped array)."""
        x = self._array("broadcast", x)
        root = self._peer("broadcast", "root", root)
        if self.size == 1:
            return DoneHandle("broadcast", self, x.copy())
        return self._checked("broadcast", lambda: self._start_broadcast(x, root),
                             dtype=x.dtype, shape=x.shape, p1=root)

    def iall_to_all(self, x, split_axis: int = 0, concat_axis: int = 0) -> Handle:
        """Start an all-to-all: ``x`` splits along ``split_axis`` into ``size`` blocks, block
        ``j`` goes to member ``j``; what arrives is concatenated along ``concat_axis``."""
        x = self._array("all_to_all", x)
        blocks = self._blocks("all_to_all", x, split_axis)
        split_axis = self._axis("all_to_all", x, split_axis)
        concat_axis = self._axis("all_to_all", x, concat_axis)

        def start():
            if self.size == 1:
                handle = DoneHandle("all_to_all", self, blocks)
            else:
                handle = self._start_all_to_all(blocks)  # (size, *moved block)
            return _then(handle, lambda received: np.concatenate(
                [np.moveaxis(b, 0, split_axis) for b in received], axis=concat_axis))
        return self._checked("all_to_all", start, dtype=x.dtype, shape=x.shape,
                             p1=split_axis, p2=concat_axis)

    def isend(self, x, dest: int, tag: int = 0) -> Handle:
        """Start sending ``x`` to member ``dest``; do not change ``x`` before ``wait()``."""
        x = self._array("send", x)
        dest, tag = self._peer("send", "dest", dest), int(tag)
        if self.size == 1 or not checking():
            return self._start_send(x, dest, tag)
        # the signature goes first on its own channel; the receiver checks it before it
        # posts the receive of the data (so a wrong buffer never takes the data)
        sig = encode("send", 0, dtype=x.dtype, shape=x.shape, p1=dest, p2=tag,
                     line=user_line())
        return AllOf("send", self, [self._start_signature_send(sig, dest, tag),
                                    self._start_send(x, dest, tag)])

    def irecv(self, shape, dtype, source: int, tag: int = 0) -> Handle:
        """Start receiving an array of ``shape``/``dtype`` from member ``source``."""
        shape, dtype = tuple(int(s) for s in shape), np.dtype(dtype)
        source, tag = self._peer("recv", "source", source), int(tag)
        if self.size == 1 or not checking():
            return self._start_recv(shape, dtype, source, tag)
        mine = encode("recv", 0, dtype=dtype, shape=shape, p1=source, p2=tag, line=user_line())
        return CheckedHandle("recv", self, self._start_signature_recv(source, tag),
                             lambda: self._start_recv(shape, dtype, source, tag),
                             queue=self._unposted.setdefault((source, tag), deque()),
                             mismatch=lambda sent: message_mismatch(
                                 self, mine, sent, source,
                                 f"shape {shape} {dtype} from rank {source}"))

    def ibarrier(self) -> Handle:
        """Start a barrier; ``wait()`` returns once every member has entered it."""
        if self.size == 1:
            return DoneHandle("barrier", self)
        return self._checked("barrier", self._start_barrier)

    # ---- collectives (blocking: start, then wait within comm_timeout) ------------------------
    def all_reduce(self, x, op: str = "sum", *, out=None,
                   timeout: float | None = None) -> np.ndarray:
        """``x`` reduced over the group by ``op`` (sum, mean, max, min, prod); written into
        ``out`` when given (``out=x`` reduces in place).

        With ``comm_check`` on, once every rank's signature has arrived (the wait that
        ``timeout`` bounds: a missing or mismatched peer is found there) the data moves with
        the transport's blocking call where it has one: every rank is then in this
        collective, and MPI's blocking all-reduce beats its non-blocking one driven from
        Python. A plain contiguous array takes a short path to it: after a large transfer
        the caches are cold and each Python step costs ~5x, so the check's price is its
        step count (4 MiB on 2 ranks: +60 us over raw mpi4py's 0.9 ms, was +150 us)."""
        if not self._short_all_reduce(x, op, out):
            return self.iall_reduce(x, op, out=out).wait(timeout)
        line = user_line()
        sig = self._all_reduce_signatures.get((op, x.dtype, x.shape, line))
        if sig is None:  # a training loop repeats a few calls: each is encoded once
            if len(self._all_reduce_signatures) > 1024:
                self._all_reduce_signatures.clear()
            sig = self._all_reduce_signatures[op, x.dtype, x.shape, line] = encode(
                "all_reduce", 0, op=op, dtype=x.dtype, shape=x.shape, group_id=self._group_id,
                line=line)
        sig[SEQUENCE_WORD] = self._check_seq  # sent before the next call reuses it
        self._check_seq += 1
        error = mismatch_error(self, "all_reduce", self._signatures_now(sig, "all_reduce",
                                                                         timeout))
        if error is not None:
            raise error
        if out is not None and op != "mean":
            self._all_reduce_now(x, op, out)
            return out
        result = self.empty(x.shape, x.dtype) if out is None else out
        self._all_reduce_now(x, "sum" if op == "mean" else op, result)
        return _finish_reduction(result, op, x.dtype, self.size, out)

    def _short_all_reduce(self, x, op: str, out) -> bool:
        """Whether a blocking all-reduce takes the short checked path: ``comm_check`` on,
        peers, a transport with a blocking all-reduce, no checked collective queued before
        it, and arguments that need no conversion (the others go through ``iall_reduce``,
        which checks and converts them)."""
        if self._all_reduce_now is None or self.size == 1 or self._unstarted or \
                type(x) is not np.ndarray or x.dtype.char not in _MPI_REDUCED:
            return False
        flags = x.flags
        return (flags.c_contiguous and (op in _MPI_OPS or op == "mean" and x.dtype.kind == "f")
                and (out is None or (flags.writeable if out is x else
                                     type(out) is np.ndarray and out.shape == x.shape
                                     and out.dtype == x.dtype and out.flags.c_contiguous
                                     and out.flags.writeable))
                and checking())

    def all_gather(self, x, axis: int = 0, *, timeout: float | None = None) -> np.ndarray:
        """Every member's ``x``, concatenated along ``axis`` in rank order."""
        return self.iall_gather(x, axis).wait(timeout)

    def reduce_scatter(self, x, op: str = "sum", axis: int = 0, *,
                       timeout: float | None = None) -> np.ndarray:
        """Block ``rank`` (of ``size`` along ``axis``) of ``x`` reduced over the group."""
        return self.ireduce_scatter(x, op, axis).wait(timeout)

    def broadcast(self, x, root: int = 0, *, timeout: float | None = None) -> np.ndarray:
        """``root``'s ``x`` on every member."""
        return self.ibroadcast(x, root).wait(timeout)

    def all_to_all(self, x, split_axis: int = 0, concat_axis: int = 0, *,
                   timeout: float | None = None) -> np.ndarray:
        """Block ``j`` of ``x`` (along ``split_axis``) sent to member ``j``; received blocks
        concatenated along ``concat_axis``."""
        return self.iall_to_all(x, split_axis, concat_axis).wait(timeout)

    def send(self, x, dest: int, tag: int = 0, *, timeout: float | None = None) -> None:
        """Send ``x`` to member ``dest`` (returns once the buffer may be reused)."""
        self.isend(x, dest, tag).wait(timeout)

    def recv(self, shape, dtype, source: int, tag: int = 0, *,
             timeout: float | None = None) -> np.ndarray:
        """An array of ``shape``/``dtype`` sent by member ``source``."""
        return self.irecv(shape, dtype, source, tag).wait(timeout)

    def barrier(self, *, timeout: float | None = None) -> None:
        """Return once every member has called ``barrier``."""
        self.ibarrier().wait(timeout)

    # ---- groups ------------------------------------------------------------------------
    def create_group(self, name: str, ranks) -> "Communicator | None":
        """A named subgroup of members ``ranks`` (ranks of this group, in the new group's
        order). Members call it (non-members may, and get ``None``); collective over members."""
        if not isinstance(name, str) or not name:
            raise CommunicatorError("bad group name", op="create_group",
                                    expected="a non-empty string", got=repr(name))
        ranks = [self._peer("create_group", "member", r) for r in ranks]
        if not ranks or len(set(ranks)) != len(ranks):
            raise CommunicatorError("bad ranks", op="create_group",
                                    expected="distinct ranks, at least one", got=ranks)
        if name in self.groups or name == self.group:
            raise CommunicatorError("group exists", op="create_group",
                                    expected="a new group name", got=repr(name))
        self.groups[name] = sub = self._create_group(name, ranks)
        return sub


def _then(handle: Handle, fn) -> Handle:
    """``handle`` whose result goes through ``fn`` (now if it is already done)."""
    if handle._done:
        handle._result = fn(handle._result)
    else:
        inner = handle._finish
        handle._finish = lambda: fn(inner())
    return handle


def _finish_reduction(got: np.ndarray, op: str, dtype: np.dtype, size: int,
                      out: np.ndarray | None = None) -> np.ndarray:
    """``mean`` from the sum, back to the caller's dtype (float16 is reduced in float32), in
    ``out`` when given."""
    if op == "mean":
        got = np.divide(got, size, out=got) if got.dtype.kind == "f" else got / size
    if out is not None:
        if got is not out:
            np.copyto(out, got, casting="unsafe")
        return out
    return got if got.dtype == dtype else got.astype(dtype)
