"""``graph.json`` parsed strictly: UTF-8, nesting depth bounded before parsing, no NaN or
Infinity literals, no key twice in an object.

The depth is measured on the bytes (string contents removed, brackets counted), so a
deeply nested document is refused without recursing into it -- Python's parser and every
reader after it recurse once per level.
"""
from __future__ import annotations

import json
from collections import Counter

import numpy as np

from .errors import SIRError

__all__ = ["MAX_JSON_DEPTH", "parse_json", "json_depth"]

MAX_JSON_DEPTH = 100
"""Nesting limit of ``graph.json``: a graph without control flow needs 9, each level of
nested sub-graphs (``cond``, ``while_loop``, ``scan`` bodies) about 6 more."""

_KEEP = b'[]{}"'
_DROP = bytes(sorted(set(range(256)) - set(_KEEP)))
_CHUNK = 2**20


def json_depth(data: bytes, limit: int) -> int:
    """The deepest nesting of the JSON ``data`` (UTF-8), counted up to just past
    ``limit``, at C speed: escaped backslashes and quotes removed, then everything but
    brackets and quotes, then what lies between quote pairs (string contents). In UTF-8
    every byte below 0x80 is that ASCII character, so this is byte-wise exact up to the
    first syntax error, which is as far as a parser would recurse."""
    kept = data.replace(b"\\\\", b"").replace(b'\\"', b"").translate(None, _DROP)
    brackets = b"".join(kept.split(b'"')[::2])
    depth = deepest = 0
    for start in range(0, len(brackets), _CHUNK):
        part = np.frombuffer(brackets, np.uint8, min(_CHUNK, len(brackets) - start), start)
        running = depth + np.cumsum(np.where((part == 0x5B) | (part == 0x7B), 1, -1))
        deepest = max(deepest, int(running.max()))
        depth = int(running[-1])
        if deepest > limit:
            break
    return deepest


def parse_json(data: bytes, where: str, *, member: str, max_depth: int = MAX_JSON_DEPTH):
    """The document in ``data``; a :class:`SIRError` naming ``where`` and ``member``."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SIRError("not UTF-8 text", where=where, field=member, got=str(exc)) from exc
    depth = json_depth(data, max_depth)
    if depth > max_depth:
        raise SIRError("JSON nested too deeply", where=where, field=member,
                       expected=f"at most {max_depth} levels", got=f"more than {max_depth}")
    try:
        return json.loads(text, parse_constant=_no_constant, object_pairs_hook=_unique_keys)
    except ValueError as exc:  # JSONDecodeError, ints over Python's digit limit, the hooks
        raise SIRError("invalid JSON", where=where, field=member,
                       got=str(exc)) from exc


def _no_constant(name: str):
    raise ValueError(f"{name} is not JSON (non-finite floats are written as $float tags)")


def _unique_keys(pairs: list) -> dict:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        twice = sorted(k for k, n in Counter(k for k, _ in pairs).items() if n > 1)
        raise ValueError(f"keys given twice in one object: {twice[:5]}")
    return obj
