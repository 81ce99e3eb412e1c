"""SIR files: ``graph.json`` and ``constants.safetensors`` in one zip (``docs/sir-format.md``).

Reading never unpickles, imports or evaluates anything from the file: the JSON names
registered primitives and tagged parameter values, safetensors holds raw arrays, and the
zip's CRC-32 per member catches damaged bytes. Writing goes to a temporary beside the
target and is renamed over it, so an interrupted save leaves the previous file whole.
"""
from __future__ import annotations

import json
import os
import tempfile
import zipfile
from pathlib import Path

import numpy as np

from ..ir import Graph
from .errors import SIRError
from .sir_codec import decode_graph, encode_graph

__all__ = ["SIR_FORMAT", "SIR_VERSION", "SUPPORTED_VERSIONS", "save_sir", "load_sir"]

SIR_FORMAT = "sporeling-sir"
SIR_VERSION = 1
SUPPORTED_VERSIONS = (1,)
GRAPH_MEMBER = "graph.json"
CONSTANTS_MEMBER = "constants.safetensors"


def save_sir(graph: Graph, path, *, meta: dict | None = None) -> Path:
    """Write ``graph`` (and JSON-ready ``meta``: input names, output structure...) to
    ``path``; returns the path."""
    from safetensors.numpy import save
    path = Path(path)
    data, consts = encode_graph(graph)
    doc = {"format": SIR_FORMAT, "version": SIR_VERSION, "producer": _producer(),
           "meta": meta or {}, "graph": data}
    text = json.dumps(doc, allow_nan=False, separators=(",", ":"))
    blob = save(consts) if consts else b""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.tmp-", dir=path.parent or ".")
    try:
        with os.fdopen(fd, "wb") as f:
            with zipfile.ZipFile(f, "w", zipfile.ZIP_DEFLATED) as z:
                z.writestr(GRAPH_MEMBER, text)
                # arrays are stored: deflate buys little on float weights and costs time
                z.writestr(zipfile.ZipInfo(CONSTANTS_MEMBER), blob, zipfile.ZIP_STORED)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp's 0o600 would surprise; as open() does
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _producer() -> str:
    try:
        from importlib.metadata import version
        return f"sporeling-compiler {version('sporeling-compiler')}"
    except Exception:  # not installed as a distribution (a source checkout)
        return "sporeling-compiler"


def load_sir(path) -> tuple[Graph, dict]:
    """The graph stored at ``path`` and its ``meta``; a :class:`SIRError` naming the file
    for anything that is not an intact SIR file of a supported version."""
    path = Path(path)
    where = str(path)
    if not path.is_file():
        raise SIRError("no such SIR file", where=where, expected="an existing file")
    try:
        with zipfile.ZipFile(path) as z:
            names = set(z.namelist())
            if GRAPH_MEMBER not in names:
                raise SIRError("not a SIR file", where=where,
                               expected=f"a zip holding {GRAPH_MEMBER}", got=sorted(names)[:5])
            text = z.read(GRAPH_MEMBER)
            blob = z.read(CONSTANTS_MEMBER) if CONSTANTS_MEMBER in names else None
    except SIRError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError) as exc:
        raise SIRError("a damaged or foreign file", where=where,
                       expected="a SIR file (a zip archive)",
                       got=f"{type(exc).__name__}: {exc}") from exc
    try:
        doc = json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SIRError(f"{GRAPH_MEMBER} is not valid JSON", where=where, got=str(exc)) from exc
    if not isinstance(doc, dict) or doc.get("format") != SIR_FORMAT:
        raise SIRError("not a SIR file", where=where, expected=f"format {SIR_FORMAT!r}",
                       got=repr(doc.get("format") if isinstance(doc, dict) else type(doc)))
    version = doc.get("version")
    if version not in SUPPORTED_VERSIONS:
        raise SIRError("unsupported SIR version", where=where,
                       expected=f"version {' or '.join(map(str, SUPPORTED_VERSIONS))}",
                       got=repr(version), hint="a newer Sporeling wrote it; upgrade to read it")
    if blob is None:
        raise SIRError(f"{CONSTANTS_MEMBER} is missing", where=where)
    meta = doc.get("meta") or {}
    if not isinstance(meta, dict):
        raise SIRError("a malformed meta section", where=where, expected="a JSON object",
                       got=type(meta).__name__)
    consts = _constants(blob, where)
    return decode_graph(doc.get("graph"), consts, where), dict(meta)


def _constants(blob: bytes, where: str) -> dict[str, np.ndarray]:
    if not blob:
        return {}
    from safetensors.numpy import load
    try:
        return load(blob)
    except Exception as exc:  # safetensors raises its own SafetensorError and others
        raise SIRError(f"{CONSTANTS_MEMBER} is damaged", where=where,
                       got=f"{type(exc).__name__}: {exc}") from exc
