"""Errors of export and load: what was expected, what came, and which file or primitive."""
from __future__ import annotations

from sporeling.core import SporelingError

__all__ = ["ExportError", "SIRError", "ONNXExportError"]


class ExportError(SporelingError, ValueError):
    """A graph cannot be written in the requested format."""


class SIRError(ExportError):
    """A SIR file cannot be written or read: damaged, of an unknown version, or naming a
    primitive or parameter this installation does not know."""


class ONNXExportError(ExportError):
    """A graph cannot be converted to ONNX (a primitive or parameter with no mapping)."""
