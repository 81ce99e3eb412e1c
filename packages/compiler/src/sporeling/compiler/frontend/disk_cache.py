"""What the converter learnt about a function, kept on disk for later processes (issue 21).

An entry holds a function's summary -- whether it has control flow of its own, which
functions it calls by name or as ``self.m`` -- and, once made, its rewrite: the rewritten
module as source text (``ast.unparse``) with the positions of its nodes, which unparsing
loses and which tracebacks and the IR's ``file:line`` need, and the module compiled, as
CPython keeps a ``.pyc`` (``marshal``; the converter's version names the Python version,
so only the interpreter that wrote it reads it). A process that finds the entry reads
neither the function's source nor rewrites nor compiles it: it loads the code (parsing
the stored text and putting the positions back only where the code is missing or
unusable). Nothing is unpickled.

Entries live in ``cache_dir("frontend")`` (``$SPORELING_HOME/cache/frontend``, else the
user's cache folder), one file per function, named by a digest of the converter's version
(the Python version and the front end's own source files), the function's file and its
qualified name. Inside, a digest of the function's code (bytecode, constants, names and
line table: any edit of its source changes it) says whether the entry is current. An entry
whose content does not match the digest written with it (damaged or edited), whose
positions do not fit its text, or that is stale is ignored and replaced. Writes are atomic
(a temporary file renamed); an unwritable folder only costs the work.
``SPORELING_FRONTEND_CACHE=0`` neither reads nor writes.
"""
from __future__ import annotations

import ast
import base64
import binascii
import hashlib
import json
import logging
import marshal
import os
import sys
import tempfile
import types
from pathlib import Path

from sporeling.core.paths import cache_dir

__all__ = ["DiskEntry", "DISABLE_ENV", "converter_version", "module_from", "rewrite_record",
           "with_code", "code_from"]

DISABLE_ENV = "SPORELING_FRONTEND_CACHE"
log = logging.getLogger("sporeling.compiler.frontend")
_VERSION: list = []


def _digest(*parts) -> str:
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:32]


def converter_version() -> str | None:
    """A digest of the Python version and the front end's source files -- the rewrite and
    the helpers it calls: a change to any makes every entry stale (None when they cannot be
    read: then nothing is cached)."""
    if not _VERSION:
        try:
            sources = [path.read_bytes()
                       for path in sorted(Path(__file__).parent.glob("*.py"))]
        except OSError:
            sources = None
        _VERSION.append(_digest(sys.version, *sources) if sources else None)
    return _VERSION[0]


def _constant(c):
    """A constant as something whose ``repr`` is the same in every process (a frozenset's
    order follows string hashing, which changes from process to process)."""
    if isinstance(c, types.CodeType):
        return _code(c)
    if isinstance(c, (tuple, frozenset)):
        parts = [_constant(x) for x in c]
        return (type(c).__name__, tuple(sorted(parts, key=repr)) if isinstance(c, frozenset)
                else tuple(parts))
    return type(c).__name__, repr(c)


def _code(code: types.CodeType) -> tuple:
    return (code.co_code, tuple(map(_constant, code.co_consts)), code.co_names,
            code.co_varnames, code.co_freevars, code.co_cellvars, code.co_linetable,
            code.co_exceptiontable, code.co_firstlineno, code.co_flags, code.co_argcount,
            code.co_posonlyargcount, code.co_kwonlyargcount, code.co_qualname,
            code.co_filename)


def _positioned(module: ast.AST) -> list:
    """The nodes that carry source positions, in a fixed order (depth first)."""
    out, stack = [], [module]
    while stack:
        node = stack.pop()
        if "lineno" in node._attributes:
            out.append(node)
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, list):
                stack.extend(v for v in value if isinstance(v, ast.AST))
            elif isinstance(value, ast.AST) and not isinstance(value, ast.expr_context):
                stack.append(value)
    return out


def rewrite_record(module: ast.Module) -> dict | None:
    """``module`` (complete with positions) as JSON-able text and positions; None when
    unparsing would not give the same tree back."""
    source = ast.unparse(module)
    nodes = _positioned(module)
    if list(map(type, _positioned(ast.parse(source)))) != list(map(type, nodes)):
        return None
    positions = [v for n in nodes
                 for v in (n.lineno, n.col_offset, n.end_lineno, n.end_col_offset)]
    return {"source": source, "positions": positions}


def with_code(record: dict, code: types.CodeType) -> dict:
    """``record`` (a rewrite) with the module's compiled ``code``."""
    return dict(record, code=base64.b64encode(marshal.dumps(code)).decode())


def code_from(record: dict) -> types.CodeType | None:
    """The compiled module :func:`with_code` stored (None when absent; ``ValueError`` when
    it is not a code object)."""
    if "code" not in record:
        return None
    try:
        code = marshal.loads(base64.b64decode(record["code"], validate=True))
    except (EOFError, TypeError, binascii.Error) as error:
        raise ValueError(f"its code does not load ({error})") from None
    if not isinstance(code, types.CodeType):
        raise ValueError("its code is not a code object")
    return code


def module_from(record: dict) -> ast.Module:
    """The module :func:`rewrite_record` wrote (``ValueError`` when it does not fit)."""
    module = ast.parse(record["source"])
    nodes, positions = _positioned(module), record["positions"]
    if len(positions) != 4 * len(nodes):
        raise ValueError("its positions do not fit its source")
    for i, node in enumerate(nodes):
        node.lineno, node.col_offset, node.end_lineno, node.end_col_offset = \
            positions[4 * i:4 * i + 4]
    return module


class DiskEntry:
    """The file of one function: :meth:`load` its record, :meth:`save` a new one."""

    def __init__(self, fn):
        code = fn.__code__
        version = converter_version()
        self.path = None
        if version is None or os.environ.get(DISABLE_ENV) == "0":
            return
        name = _digest(version, code.co_filename, fn.__qualname__)
        self.path = os.path.join(cache_dir("frontend"), name + ".json")
        self.key = _digest(_code(code), fn.__module__)

    def load(self) -> dict | None:
        """``{"own", "calls", "rewrite"}`` for this very code; None when absent, stale or
        unusable."""
        if self.path is None:
            return None
        try:
            with open(self.path, "rb") as f:
                digest, _, body = f.read().partition(b"\n")
        except OSError:
            return None
        try:
            if digest.decode() != hashlib.sha256(body).hexdigest():
                raise ValueError("its content does not match its digest")
            record = json.loads(body)
            if record["key"] != self.key:
                return None  # another version of the function: replaced when saved
            calls = record["calls"]
            if not isinstance(record["own"], bool) or not isinstance(calls, list) or not all(
                    isinstance(c, list) and len(c) == 2 and c[0] in ("name", "self") and
                    isinstance(c[1], str) for c in calls):
                raise ValueError("malformed summary")
            return record
        except (ValueError, KeyError, TypeError) as error:
            log.info("frontend cache entry %s unusable (%s): reading the source again",
                     self.path, error)
            return None

    def save(self, own: bool, calls, rewrite: dict | None) -> None:
        if self.path is None:
            return
        body = json.dumps({"key": self.key, "own": own, "calls": [list(c) for c in calls],
                           "rewrite": rewrite}, separators=(",", ":")).encode()
        folder = os.path.dirname(self.path)
        temporary = None
        try:
            os.makedirs(folder, exist_ok=True)
            fd, temporary = tempfile.mkstemp(suffix=".tmp", dir=folder)
            with os.fdopen(fd, "wb") as f:
                f.write(hashlib.sha256(body).hexdigest().encode() + b"\n" + body)
            os.replace(temporary, self.path)
        except OSError as error:  # a read-only or full cache folder: keep going
            log.info("could not write frontend cache entry %s (%s)", self.path, error)
            if temporary is not None and os.path.exists(temporary):
                os.unlink(temporary)

    @property
    def enabled(self) -> bool:
        return self.path is not None
