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
from .sir_container import CONSTANTS_MEMBER, GRAPH_MEMBER, MAX_GRAPH_BYTES, read_members
from .sir_json import MAX_JSON_DEPTH, parse_json
from .sir_schema import Fields, show

__all__ = ["SIR_FORMAT", "SIR_VERSION", "SUPPORTED_VERSIONS", "MAX_GRAPH_BYTES",
           "MAX_JSON_DEPTH", "save_sir", "load_sir"]

SIR_FORMAT = "sporeling-sir"
SIR_VERSION = 1
SUPPORTED_VERSIONS = (1,)


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


def load_sir(path, *, max_graph_bytes: int = MAX_GRAPH_BYTES,
             max_constants_bytes: int | None = None) -> tuple[Graph, dict]:
    """The graph stored at ``path`` and its ``meta``; a :class:`SIRError` naming the file
    (and the member or field at fault) for anything that is not an intact SIR file of a
    supported version.

    ``max_graph_bytes`` (default :data:`MAX_GRAPH_BYTES`, 64 MiB) and
    ``max_constants_bytes`` (default: the file's size, as constants are stored
    uncompressed) limit what each member may inflate to; ``graph.json`` may nest
    :data:`MAX_JSON_DEPTH` levels.
    """
    path = Path(path)
    where = str(path)
    if not path.is_file():
        raise SIRError("no such SIR file", where=where, expected="an existing file")
    text, blob = read_members(path, max_graph_bytes=max_graph_bytes,
                              max_constants_bytes=max_constants_bytes)
    doc = parse_json(text, where, member=GRAPH_MEMBER)
    if not isinstance(doc, dict) or doc.get("format") != SIR_FORMAT:
        raise SIRError("not a SIR file", where=where, expected=f"format {SIR_FORMAT!r}",
                       got=show(doc.get("format") if isinstance(doc, dict) else doc))
    version = doc.get("version")
    fields = Fields(where)
    fields.integer(version, "version", 1)  # true is no version 1
    if version not in SUPPORTED_VERSIONS:
        raise SIRError("unsupported SIR version", where=where, field="version",
                       expected=f"version {' or '.join(map(str, SUPPORTED_VERSIONS))}",
                       got=show(version), hint="a newer Sporeling wrote it; upgrade to read it")
    fields.object(doc, GRAPH_MEMBER, {"format", "version", "graph"}, {"producer", "meta"})
    fields.string(doc.get("producer", ""), "producer")
    meta = fields.mapping(doc.get("meta", {}), "meta")
    if blob is None:
        raise SIRError(f"{CONSTANTS_MEMBER} is missing", where=where)
    return decode_graph(doc["graph"], _constants(blob, where), where), meta


def _constants(blob: bytes, where: str) -> dict[str, np.ndarray]:
    if not blob:
        return {}
    from safetensors.numpy import load
    try:
        return load(blob)
    except Exception as exc:  # safetensors raises its own SafetensorError and others
        raise SIRError("damaged safetensors", where=where, field=CONSTANTS_MEMBER,
                       got=f"{type(exc).__name__}: {exc}") from exc
