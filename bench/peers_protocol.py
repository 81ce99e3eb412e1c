"""Messages between ``peers.py`` and its workers: length-prefixed pickles over pipes.

Arrays travel as ``.npy`` bytes rather than pickled ndarrays, because the MindSpore worker
runs NumPy 1.x and the parent NumPy 2 (their pickles name different modules).
"""
from __future__ import annotations

import io
import pickle
import struct
from typing import Any, BinaryIO

import numpy as np

_HEADER = struct.Struct("<Q")
_ARRAY = "__ndarray__"


def _pack(obj: Any) -> Any:
    if isinstance(obj, np.ndarray):
        buf = io.BytesIO()
        np.save(buf, obj, allow_pickle=False)
        return (_ARRAY, buf.getvalue())
    if isinstance(obj, dict):
        return {k: _pack(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return type(obj)(_pack(v) for v in obj)
    return obj


def _unpack(obj: Any) -> Any:
    if isinstance(obj, tuple) and len(obj) == 2 and obj[0] == _ARRAY:
        return np.load(io.BytesIO(obj[1]), allow_pickle=False)
    if isinstance(obj, dict):
        return {k: _unpack(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return type(obj)(_unpack(v) for v in obj)
    return obj


def send(stream: BinaryIO, message: Any) -> None:
    data = pickle.dumps(_pack(message), protocol=4)
    stream.write(_HEADER.pack(len(data)) + data)
    stream.flush()


def receive(stream: BinaryIO) -> Any:
    """The next message; ``EOFError`` when the other side has gone."""
    header = stream.read(_HEADER.size)
    if len(header) < _HEADER.size:
        raise EOFError("peer closed the pipe")
    (size,) = _HEADER.unpack(header)
    data = stream.read(size)
    if len(data) < size:
        raise EOFError("peer closed the pipe mid-message")
    return _unpack(pickle.loads(data))
