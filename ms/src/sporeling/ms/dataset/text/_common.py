"""Shared pieces of the text transforms: string arrays and offsets."""
from __future__ import annotations

import numpy as np

from sporeling.data import DataError

__all__ = ["as_str", "as_strings", "tokens_out", "TextTransform"]


def as_str(value, op: str) -> str:
    """A scalar text column (str, bytes, a 0-d array) as ``str``."""
    if isinstance(value, np.ndarray):
        if value.ndim != 0:
            raise DataError("expects one string", op=op, expected="a scalar string",
                            got=value.shape)
        value = value.item()
    if isinstance(value, bytes):
        value = value.decode("utf-8")
    if not isinstance(value, str):
        raise DataError("not a string", op=op, expected="a str", got=type(value).__name__)
    return value


def as_strings(value, op: str) -> np.ndarray:
    """A text column of any rank as a str array."""
    a = np.asarray(value)
    if a.dtype.kind == "S":
        a = np.char.decode(a, "utf-8")
    if a.dtype.kind != "U":
        raise DataError("not strings", op=op, expected="a str array", got=str(a.dtype))
    return a


def tokens_out(text: str, spans, with_offsets: bool):
    """Tokens of ``text`` at ``spans`` ((start, end) character indices); with offsets, also
    their UTF-8 byte offsets (start, limit) as uint32, MindSpore's convention."""
    tokens = np.asarray([text[s:e] for s, e in spans], dtype=np.str_)
    if not with_offsets:
        return tokens
    byte_at = np.cumsum([0] + [len(c.encode("utf-8")) for c in text])
    starts = np.asarray([byte_at[s] for s, _ in spans], np.uint32)
    limits = np.asarray([byte_at[e] for _, e in spans], np.uint32)
    return tokens, starts, limits


class TextTransform:
    def __repr__(self):
        return f"{type(self).__name__}()"
