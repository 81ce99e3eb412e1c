"""Errors of the runtime, on top of core's hierarchy (each also a builtin Python exception)."""
from __future__ import annotations

from sporeling.core import SporelingError

__all__ = ["BackendNotFoundError", "KernelNotFoundError", "PoolError"]


class BackendNotFoundError(SporelingError, LookupError):
    """No installed backend has the requested name or device target."""


class KernelNotFoundError(SporelingError, LookupError):
    """A backend has no kernel for a primitive."""


class PoolError(SporelingError, ValueError):
    """Misuse of a memory pool, e.g. freeing an array the pool did not allocate."""
