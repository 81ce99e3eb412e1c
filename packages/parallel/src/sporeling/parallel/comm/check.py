"""Collective signature checks (the ``comm_check`` context key): mismatches become a named
error on every rank, never wrong data.

MPI matches collectives by order, not by kind: when rank 0 calls ``all_reduce`` while rank 1
calls ``all_gather`` of the same byte count, both may complete -- with wrong data. With the
check on, every collective first all-gathers a compact *signature* of each rank's call
(collective, op, dtype, shape, root/axes, group, the communicator's sequence number, and the
user's line as payload) over a side channel that user collectives never use (MPI: a
duplicate of the communicator; local: a rendezvous of its own). Only when every rank's
signature is equal does the collective itself start; otherwise no rank starts it, and each
raises :class:`~sporeling.parallel.errors.CollectiveMismatchError` naming what every rank
called. A nonblocking all-reduce overlaps the round trip with its local work (it copies the
rank's input into its result buffer, MPI's own first step, while the signatures travel,
then reduces in place); a blocking one waits for the signatures, then makes MPI's blocking
call in as few Python steps as it can: the check's price is those steps, each slow on the
cold caches a large transfer leaves (issue 23 §14).
The exchange is nonblocking (``i*`` starts never wait for the peers) and the handle's
``wait(timeout)`` bounds both phases, so a rank that never arrives is still a
:class:`~sporeling.parallel.errors.CollectiveTimeoutError`.

Real collectives start in the order they were called on every rank (MPI requires it): a
handle whose signatures arrived first waits until the earlier ones of its communicator
have started.

    >>> sig = encode("all_reduce", 3, op="sum", dtype=np.dtype("float32"), shape=(4,),
    ...              group_id=0, line="job.py:7 in step")
    >>> describe(sig)
    'all_reduce(sum) float32[4]'
    >>> line_of(sig)
    'job.py:7 in step'
"""
from __future__ import annotations

import functools
import os
import sys
import zlib
from collections import deque

import numpy as np

from sporeling.core import context_version, get_context

from ..errors import CollectiveMismatchError
from .handle import Handle

__all__ = ["encode", "describe", "line_of", "CheckedHandle", "AllOf", "group_id", "user_line",
           "mismatch_error", "message_mismatch", "SIGNATURE_WORDS", "SEQUENCE_WORD", "checking",
           "Described"]

KINDS = ("all_reduce", "all_gather", "reduce_scatter", "broadcast", "all_to_all", "barrier",
         "send", "recv")
OPS = ("sum", "mean", "max", "min", "prod")
MAX_DIMS = 8
LINE_BYTES = 256
_MAGIC = 0x53504348  # "SPCH": a buffer that is not a signature (another exchange) differs

# int64 slots of a signature; the user's line (payload, never compared) follows
_MAGIC_AT, _SEQ, _KIND, _OP, _DTYPE, _P1, _P2, _GROUP, _NDIM, _SHAPE_CRC, _DIMS = \
    0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11
COMPARED = _DIMS + MAX_DIMS
SEQUENCE_WORD = _SEQ
SIGNATURE_WORDS = COMPARED + LINE_BYTES // 8
_NONE = -1

_FIELDS = {"collective": (_KIND,), "op": (_OP,), "dtype": (_DTYPE, _DTYPE + 1),
           "root/axis": (_P1, _P2), "group": (_GROUP,), "sequence number": (_SEQ,),
           "shape": (_NDIM, _SHAPE_CRC) + tuple(range(_DIMS, _DIMS + MAX_DIMS))}


def group_id(name: str, world_ranks) -> int:
    """A number naming a group by its name and members (equal on every member)."""
    return zlib.crc32(repr((name, tuple(world_ranks))).encode())


_LINE_WORDS = SIGNATURE_WORDS - COMPARED
_checking = [-1, False]  # (context version, comm_check == "on")


def checking() -> bool:
    """Whether ``comm_check`` is on (cached per context version: this runs per collective,
    and a key at its default costs a registry look-up)."""
    version = context_version()
    if version != _checking[0]:
        _checking[:] = [version, get_context("comm_check") == "on"]
    return _checking[1]


@functools.lru_cache(maxsize=1024)  # lines and dtype names repeat: encode each once
def _text_words(text: str, words: int) -> tuple[int, ...]:
    raw = text.encode("utf-8", "replace")
    if len(raw) > words * 8:  # keep the end: the file's name and the line number
        raw = b"..." + raw[-(words * 8 - 3):]
    return tuple(np.frombuffer(raw.ljust(words * 8, b"\0"), np.int64).tolist())


def _words_text(words: np.ndarray) -> str:
    return words.astype(np.int64).tobytes().rstrip(b"\0").decode("utf-8", "replace")


def encode(kind: str, seq: int, **call) -> np.ndarray:
    """The signature of one call (keywords: ``op``, ``dtype``, ``shape``, ``p1``, ``p2``,
    ``group_id``, ``line``): int64 words, equal across ranks exactly when the calls match
    (the trailing line words excepted)."""
    sig = _encoded(kind, **call).copy()  # a loop repeats its calls: each is encoded once
    sig[_SEQ] = seq
    return sig


@functools.lru_cache(maxsize=1024)
def _encoded(kind: str, *, op: str | None = None, dtype=None, shape=(), p1: int = _NONE,
             p2: int = _NONE, group_id: int = 0, line: str = "") -> np.ndarray:
    shape = tuple(int(s) for s in shape)
    dims = shape[:MAX_DIMS] + (0,) * (MAX_DIMS - min(len(shape), MAX_DIMS))
    sig = np.array((_MAGIC, 0, KINDS.index(kind), _NONE if op is None else OPS.index(op))
                   + _text_words("" if dtype is None else np.dtype(dtype).name, 2)
                   + (p1, p2, group_id, len(shape) if dtype is not None else _NONE,
                      zlib.crc32(repr(shape).encode())) + dims
                   + _text_words(line, _LINE_WORDS), np.int64)
    sig.flags.writeable = False  # shared by every call it encodes
    return sig


def describe(sig: np.ndarray) -> str:
    """``all_reduce(sum) float32[4]``, ``all_gather(axis 0) float64[2, 3]``, ..."""
    if sig[_MAGIC_AT] != _MAGIC or not 0 <= sig[_KIND] < len(KINDS):
        return "something else (not a collective signature)"
    kind = KINDS[int(sig[_KIND])]
    args = [OPS[int(sig[_OP])]] if sig[_OP] != _NONE else []
    p1, p2 = int(sig[_P1]), int(sig[_P2])
    if kind in ("all_gather", "reduce_scatter"):
        args.append(f"axis {p1}")
    elif kind == "broadcast":
        args.append(f"root {p1}")
    elif kind == "all_to_all":
        args += [f"split_axis {p1}", f"concat_axis {p2}"]
    elif kind == "send":
        args += [f"dest {p1}", f"tag {p2}"]
    elif kind == "recv":
        args += [f"source {p1}", f"tag {p2}"]
    text = f"{kind}({', '.join(args)})"
    ndim = int(sig[_NDIM])
    if ndim >= 0:
        dims = [str(int(d)) for d in sig[_DIMS:_DIMS + min(ndim, MAX_DIMS)]]
        if ndim > MAX_DIMS:
            dims.append(f"... ({ndim} dims)")
        text += f" {_words_text(sig[_DTYPE:_DTYPE + 2])}[{', '.join(dims)}]"
    return text


class Described:
    """``describe(sig)`` when printed: a timeout's message names the call, and the
    formatting is paid for only then."""
    __slots__ = ("sig",)

    def __init__(self, sig: np.ndarray):
        self.sig = sig

    def __str__(self) -> str:
        return describe(self.sig)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def line_of(sig: np.ndarray) -> str:
    return _words_text(sig[COMPARED:])


def user_line() -> str:
    """``file:line in function`` of the innermost caller outside Sporeling ("" if none)."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_globals.get("__name__", "").startswith("sporeling."):
        frame = frame.f_back
    if frame is None:
        return ""
    return _line_text(frame.f_code, frame.f_lineno)


@functools.lru_cache(maxsize=1024)  # a training loop calls from the same few lines
def _line_text(code, lineno: int) -> str:
    return f"{os.path.basename(code.co_filename)}:{lineno} in {code.co_name}"


def _call(sig: np.ndarray) -> str:
    line = line_of(sig)
    return describe(sig) + (f" at {line}" if line else "")


def _differ(rows: np.ndarray, fields) -> list[str]:
    return [name for name in fields
            if any(len(set(rows[:, s].tolist())) > 1 for s in _FIELDS[name])]


def mismatch_error(comm, kind: str, signatures: np.ndarray) -> CollectiveMismatchError | None:
    """None when the gathered ``signatures`` (one row per rank) match; else the error every
    rank raises: what each rank called and where, and which fields differ."""
    rows = signatures[:, :COMPARED]
    compared = rows.tobytes()  # bytes compare: this runs on every checked collective
    if compared[:COMPARED * 8] * len(rows) == compared:
        return None
    return CollectiveMismatchError(kind, rank=comm.rank, group=comm.group,
                                   number=int(signatures[comm.rank, _SEQ]),
                                   calls={r: _call(sig) for r, sig in enumerate(signatures)},
                                   differ=_differ(rows, _FIELDS))


def message_mismatch(comm, mine: np.ndarray, sent: np.ndarray, source: int,
                     expected: str) -> CollectiveMismatchError | None:
    """None when the message ``source`` announced (its send's signature) fits this rank's
    recv ``mine`` (dtype and shape); else the error the receiver raises."""
    differ = _differ(np.stack([mine, sent]), ("dtype", "shape"))
    if not differ:
        return None
    return CollectiveMismatchError("recv", rank=comm.rank, group=comm.group, number=None,
                                   calls={source: _call(sent), comm.rank: _call(mine)},
                                   differ=differ, expected=expected)


class CheckedHandle(Handle):
    """An operation whose signature exchange (``check``) is under way: once it has arrived
    and ``mismatch(result)`` finds nothing, ``start()`` starts the operation itself -- in
    the order of ``queue`` (the communicator's collectives; or the receives from one source
    with one tag); the result is that operation's."""

    def __init__(self, collective: str, comm, check: Handle, start, *,
                 queue: deque | None = None, mismatch=None):
        super().__init__(collective, comm, self._result_of_real)
        self._check, self._start, self._real = check, start, None
        self._queue = comm._unstarted if queue is None else queue
        self._mismatch = mismatch or (lambda got: mismatch_error(comm, collective, got))
        self._error: CollectiveMismatchError | None = None
        self._queue.append(self)

    # ---- starting in order ----------------------------------------------------------------
    def _advance(self) -> None:
        """Start every queued operation whose signatures have arrived, in call order; a
        mismatch is raised here (and again by its own handle)."""
        queue = self._queue
        while queue and queue[0]._check.test():
            queue.popleft()._verify_and_start()
        if self._error is not None:
            raise self._error

    def _verify_and_start(self) -> None:
        self._error = self._mismatch(self._check._result)
        if self._error is not None:
            raise self._error
        self._real = self._start()

    # ---- Handle -----------------------------------------------------------------------------
    def _poll(self) -> bool:
        self._advance()
        return self._real is not None and self._real.test()

    def _block(self, deadline: float) -> bool:
        if self._real is None:
            for earlier in list(self._queue):  # this one's and every earlier signature exchange
                if not earlier._check._done and not earlier._check._block(deadline):
                    return False
                if earlier is self:
                    break
            self._advance()
        return self._real._done or self._real._block(deadline)

    def _result_of_real(self):
        if not self._real._done:
            self._real._complete()
        return self._real._result

    def _detail(self) -> str:
        if self._real is not None:
            return self._real._detail()
        return f"in the signature check (comm_check='on'): {self._check._detail()}".rstrip(": ")

    def _cancel(self) -> None:
        (self._real or self._check)._cancel()


class AllOf(Handle):
    """Several started operations as one (a send and its announcement); the result is the
    last one's."""

    def __init__(self, collective: str, comm, handles: list[Handle]):
        super().__init__(collective, comm, lambda: handles[-1].wait(0))
        self._handles = handles

    def _poll(self) -> bool:
        return all([h.test() for h in self._handles])

    def _block(self, deadline: float) -> bool:
        return all(h._done or h._block(deadline) for h in self._handles)

    def _detail(self) -> str:
        return "; ".join(d for h in self._handles if not h._done and (d := h._detail()))

    def _cancel(self) -> None:
        for h in self._handles:
            h._cancel()
