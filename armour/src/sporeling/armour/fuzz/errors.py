"""The error fuzzing raises for bad input (a ``SporelingError`` and a ``ValueError``)."""
from sporeling.core.errors import SporelingError

__all__ = ["FuzzError"]


class FuzzError(SporelingError, ValueError):
    """A fuzzing argument out of range or of the wrong shape; the message says what was
    expected and what came."""
