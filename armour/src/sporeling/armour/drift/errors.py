"""The error drift detection raises for bad input (a ``SporelingError`` and a ``ValueError``)."""
from sporeling.core.errors import SporelingError

__all__ = ["DriftError"]


class DriftError(SporelingError, ValueError):
    """A drift-detection argument out of range or of the wrong shape; the message says what
    was expected and what came."""
