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
called. The exchange is nonblocking (``i*`` starts never wait for the peers) and the handle's
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

import os
import sys
import zlib
from collections import deque

import numpy as np

from ..errors import CollectiveMismatchError
from .handle import Handle

__all__ = ["encode", "describe", "line_of", "CheckedHandle", "group_id", "user_line",
           "mismatch_error", "SIGNATURE_WORDS"]

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
SIGNATURE_WORDS = COMPARED + LINE_BYTES // 8
_NONE = -1

_FIELDS = {"collective": (_KIND,), "op": (_OP,), "dtype": (_DTYPE, _DTYPE + 1),
           "root/axis": (_P1, _P2), "group": (_GROUP,), "sequence number": (_SEQ,),
           "shape": (_NDIM, _SHAPE_CRC) + tuple(range(_DIMS, _DIMS + MAX_DIMS))}


def group_id(name: str, world_ranks) -> int:
    """A number naming a group by its name and members (equal on every member)."""
    return zlib.crc32(repr((name, tuple(world_ranks))).encode())


def _text_words(text: str, words: int) -> np.ndarray:
    raw = text.encode("utf-8", "replace")
    if len(raw) > words * 8:  # keep the end: the file's name and the line number
        raw = b"..." + raw[-(words * 8 - 3):]
    return np.frombuffer(raw.ljust(words * 8, b"\0"), np.int64)


def _words_text(words: np.ndarray) -> str:
    return words.astype(np.int64).tobytes().rstrip(b"\0").decode("utf-8", "replace")


def encode(kind: str, seq: int, *, op: str | None = None, dtype=None, shape=(),
           p1: int = _NONE, p2: int = _NONE, group_id: int = 0, line: str = "") -> np.ndarray:
    """The signature of one call: int64 words, equal across ranks exactly when the calls
    match (the trailing line words excepted)."""
    sig = np.zeros(SIGNATURE_WORDS, np.int64)
    sig[_MAGIC_AT], sig[_SEQ], sig[_KIND] = _MAGIC, seq, KINDS.index(kind)
    sig[_OP] = _NONE if op is None else OPS.index(op)
    sig[_DTYPE:_DTYPE + 2] = _text_words("" if dtype is None else np.dtype(dtype).name, 2)
    sig[_P1], sig[_P2], sig[_GROUP] = p1, p2, group_id
    shape = tuple(int(s) for s in shape)
    sig[_NDIM] = len(shape) if dtype is not None else _NONE
    sig[_SHAPE_CRC] = zlib.crc32(repr(shape).encode())
    sig[_DIMS:_DIMS + min(len(shape), MAX_DIMS)] = shape[:MAX_DIMS]
    sig[COMPARED:] = _text_words(line, SIGNATURE_WORDS - COMPARED)
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


def line_of(sig: np.ndarray) -> str:
    return _words_text(sig[COMPARED:])


def user_line() -> str:
    """``file:line in function`` of the innermost caller outside Sporeling ("" if none)."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_globals.get("__name__", "").startswith("sporeling."):
        frame = frame.f_back
    if frame is None:
        return ""
    return f"{os.path.basename(frame.f_code.co_filename)}:{frame.f_lineno} in " \
           f"{frame.f_code.co_name}"


def mismatch_error(comm, kind: str, signatures: np.ndarray) -> CollectiveMismatchError:
    """The error every rank raises for gathered ``signatures`` (one row per rank) that
    differ: what each rank called and where, and which fields differ."""
    rows = signatures[:, :COMPARED]
    differ = [name for name, slots in _FIELDS.items()
              if any(len(set(rows[:, s].tolist())) > 1 for s in slots)]
    calls = {}
    for r, sig in enumerate(signatures):
        line = line_of(sig)
        calls[r] = describe(sig) + (f" at {line}" if line else "")
    return CollectiveMismatchError(kind, rank=comm.rank, group=comm.group,
                                   number=int(signatures[comm.rank, _SEQ]), calls=calls,
                                   differ=differ)


class CheckedHandle(Handle):
    """A collective whose signature exchange is under way: once every rank's signature has
    arrived and they match, ``start()`` starts the collective itself (in call order per
    communicator); the result is that collective's."""

    def __init__(self, collective: str, comm, check: Handle, start):
        super().__init__(collective, comm, self._result_of_real)
        self._check, self._start, self._real = check, start, None
        self._error: CollectiveMismatchError | None = None
        comm._unstarted.append(self)

    # ---- starting in order ----------------------------------------------------------------
    def _advance(self) -> None:
        """Start every queued collective of the communicator whose signatures have arrived,
        in call order; a mismatch is raised here (and again by its own handle)."""
        queue: deque = self.comm._unstarted
        while queue and queue[0]._check.test():
            queue.popleft()._verify_and_start()
        if self._error is not None:
            raise self._error

    def _verify_and_start(self) -> None:
        signatures = self._check._result
        if (signatures[:, :COMPARED] == signatures[0, :COMPARED]).all():
            self._real = self._start()
            return
        self._error = mismatch_error(self.comm, self.collective, signatures)
        raise self._error

    # ---- Handle -----------------------------------------------------------------------------
    def _poll(self) -> bool:
        self._advance()
        return self._real is not None and self._real.test()

    def _block(self, deadline: float) -> bool:
        if self._real is None:
            queue = self.comm._unstarted
            for earlier in list(queue):  # this one's and every earlier signature exchange
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
