"""Errors of export and load: what was expected, what came, and which file or primitive."""
from __future__ import annotations

from sporeling.core import SporelingError

__all__ = ["ExportError", "SIRError", "ONNXExportError"]


class ExportError(SporelingError, ValueError):
    """A graph cannot be written in the requested format."""


class SIRError(ExportError):
    """A SIR file cannot be written or read: damaged, of an unknown version, or naming a
    primitive or parameter this installation does not know. ``field`` names the part of
    the file at fault (a zip member, or a path into ``graph.json`` such as
    ``graph.equations[3].params``), or is None."""

    def __init__(self, message: str = "", *, field: str | None = None, **kw):
        self.field = field
        super().__init__(f"{message} in {field}" if field else message, **kw)


class ONNXExportError(ExportError):
    """A graph cannot be converted to ONNX (a primitive or parameter with no mapping)."""
