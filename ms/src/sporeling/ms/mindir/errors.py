"""Errors of MindIR export and load: what was expected, what came, which file or node."""
from __future__ import annotations

from sporeling.compiler.export import ExportError

__all__ = ["MindIRError", "MindIRUnsupportedError"]


class MindIRError(ExportError):
    """A MindIR file cannot be written or read: damaged, truncated, or not a MindIR."""


class MindIRUnsupportedError(MindIRError):
    """A graph uses operations with no MindIR (export) or Sporeling (load) counterpart;
    ``names`` lists every one of them, not only the first."""

    def __init__(self, message: str = "", *, names=(), **kw):
        self.names = sorted(set(names))
        super().__init__(message, got=", ".join(self.names) or None, **kw)
