"""Activations and gradients between neighbouring stages: nonblocking sends (kept until the
step ends, so nothing waits on a slower neighbour), blocking receives timed as idle.

The receiver learns an activation's shape and dtype from a small header sent before the
first micro-batch's activation of each step (every micro-batch has the same shape);
a gradient has the shape of the activation it belongs to.
"""
from __future__ import annotations

import time

import numpy as np

from ..comm.base import Communicator
from .errors import PipelineError

__all__ = ["StageLink", "MAX_MICRO"]

MAX_MICRO = 4096
_GRAD_TAG = MAX_MICRO          # gradient of micro-batch i: tag _GRAD_TAG + i
_HEADER_TAG = 2 * MAX_MICRO    # activation header (the MPI standard guarantees tags < 32768)
_HEADER_LEN = 16
_DTYPES = ("float64", "float32", "float16", "int64", "int32", "int8", "uint8", "bool")


class StageLink:
    """This rank's sends and receives to the previous (``prev``) and next (``next``) stage."""

    def __init__(self, comm: Communicator, prev: int | None, next: int | None):
        self.comm, self.prev, self.next = comm, prev, next
        self.pending: list = []     # (handle, buffer) of sends not yet waited on
        self.idle = 0.0             # seconds spent waiting in receives this step
        self._meta = None           # (shape, dtype) of the activations received

    def _recv(self, shape, dtype, source, tag):
        start = time.perf_counter()
        got = self.comm.recv(shape, dtype, source, tag)
        self.idle += time.perf_counter() - start
        return got

    def _send(self, array: np.ndarray, dest: int, tag: int) -> None:
        array = np.ascontiguousarray(array)
        self.pending.append((self.comm.isend(array, dest, tag), array))

    def send_activation(self, i: int, array: np.ndarray) -> None:
        if i == 0:
            if array.dtype.name not in _DTYPES or array.ndim > _HEADER_LEN - 2:
                raise PipelineError("an activation cannot travel between stages",
                                    op="PipelineCell", expected=f"an array of one of "
                                    f"{', '.join(_DTYPES)} with at most {_HEADER_LEN - 2} dims",
                                    got=f"{array.dtype} of shape {array.shape}")
            header = np.zeros(_HEADER_LEN, np.int64)
            header[0], header[1] = _DTYPES.index(array.dtype.name), array.ndim
            header[2:2 + array.ndim] = array.shape
            self._send(header, self.next, _HEADER_TAG)
        self._send(array, self.next, i)

    def recv_activation(self, i: int) -> np.ndarray:
        if i == 0:
            header = self._recv((_HEADER_LEN,), np.int64, self.prev, _HEADER_TAG)
            shape = tuple(int(s) for s in header[2:2 + int(header[1])])
            self._meta = (shape, np.dtype(_DTYPES[int(header[0])]))
        return self._recv(*self._meta, self.prev, i)

    def send_gradient(self, i: int, array: np.ndarray) -> None:
        self._send(array, self.prev, _GRAD_TAG + i)

    def recv_gradient(self, i: int, shape, dtype) -> np.ndarray:
        return self._recv(shape, dtype, self.next, _GRAD_TAG + i)

    def finish(self) -> None:
        """Wait for every send of the step (the buffers may then go)."""
        for handle, _buf in self.pending:
            handle.wait()
        self.pending.clear()
