"""A SIR file's zip members, read within size limits.

A zip declares each member's size in its directory, and a small file can inflate to
gigabytes (a zip bomb): each member is refused when its declared size is over its limit,
and read in chunks that stop at limit + 1 bytes whatever the directory says. Whatever
the zip module raises on damaged bytes (``BadZipFile``, ``zlib.error``,
``NotImplementedError`` for an unknown compression method, ``RuntimeError`` for
encryption...) becomes a :class:`SIRError` naming the file and the member.
"""
from __future__ import annotations

import struct
import zipfile
import zlib
from pathlib import Path

from .errors import SIRError

__all__ = ["GRAPH_MEMBER", "CONSTANTS_MEMBER", "MAX_GRAPH_BYTES", "read_members",
           "read_capped"]

GRAPH_MEMBER = "graph.json"
CONSTANTS_MEMBER = "constants.safetensors"
MAX_GRAPH_BYTES = 64 * 2**20
"""Default limit of ``graph.json``: about 300,000 equations (the zoo's models need 2 to
31 KB); its JSON parses to a few times as many bytes of Python objects."""

_CHUNK = 2**20
_METHODS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflate"}
_ZIP_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, NotImplementedError,
               RuntimeError, OSError, EOFError, ValueError, KeyError, IndexError,
               OverflowError, struct.error)


def _damaged(where: str, exc: Exception, field: str | None = None) -> SIRError:
    return SIRError("a damaged or foreign file", where=where, field=field,
                    expected="a SIR file (a zip archive)",
                    got=f"{type(exc).__name__}: {exc}")


def read_members(path: Path, *, max_graph_bytes: int = MAX_GRAPH_BYTES,
                 max_constants_bytes: int | None = None) -> tuple[bytes, bytes | None]:
    """``graph.json`` and ``constants.safetensors`` (None when absent) of the zip at
    ``path``. ``max_constants_bytes`` defaults to the file's own size: the writer stores
    constants uncompressed, so they are never larger than the file."""
    where = str(path)
    limits = {GRAPH_MEMBER: ("max_graph_bytes", max_graph_bytes),
              CONSTANTS_MEMBER: ("max_constants_bytes", max_constants_bytes
                                 if max_constants_bytes is not None else path.stat().st_size)}
    try:
        with zipfile.ZipFile(path) as z:
            infos = z.infolist()
            names = [i.filename for i in infos]
            if GRAPH_MEMBER not in names:
                raise SIRError("not a SIR file", where=where,
                               expected=f"a zip holding {GRAPH_MEMBER}", got=sorted(names)[:5])
            unexpected = sorted({n for n in names if n not in limits})
            twice = sorted({n for n in names if names.count(n) > 1})
            if unexpected or twice:
                raise SIRError("unexpected zip members", where=where,
                               expected=f"{GRAPH_MEMBER} and {CONSTANTS_MEMBER}, once each",
                               got=(unexpected + [f"{n} twice" for n in twice])[:5])
            return tuple(_read(z, z.getinfo(name), *limits[name], where)
                         if name in names else None for name in limits)
    except SIRError:
        raise
    except _ZIP_ERRORS as exc:
        raise _damaged(where, exc) from exc


def _read(z: zipfile.ZipFile, info: zipfile.ZipInfo, option: str, limit: int,
          where: str) -> bytes:
    name = info.filename
    if info.flag_bits & 0x1:
        raise SIRError("an encrypted member", where=where, field=name,
                       expected="a plain member (SIR files are never encrypted)")
    if info.compress_type not in _METHODS:
        raise SIRError("an unsupported compression method", where=where, field=name,
                       expected=" or ".join(_METHODS.values()), got=info.compress_type)
    if info.file_size > limit:
        raise _too_big(where, name, option, limit, f"{info.file_size} bytes declared")
    try:
        with z.open(info) as stream:
            data = read_capped(stream, limit)
    except _ZIP_ERRORS as exc:
        raise _damaged(where, exc, name) from exc
    if data is None:
        raise _too_big(where, name, option, limit, "more bytes when inflated")
    return data


def _too_big(where: str, name: str, option: str, limit: int, got: str) -> SIRError:
    return SIRError("a member larger than the limit", where=where, field=name,
                    expected=f"at most {limit} bytes ({option})", got=got,
                    hint=f"if the file is trusted, pass a larger {option} to load it")


def read_capped(stream, limit: int) -> bytes | None:
    """All of ``stream`` if it holds at most ``limit`` bytes, else None; never reads more
    than ``limit + 1`` bytes, in chunks."""
    parts, size = [], 0
    while size <= limit:
        chunk = stream.read(min(_CHUNK, limit + 1 - size))
        if not chunk:
            return b"".join(parts)
        parts.append(chunk)
        size += len(chunk)
    return None
