"""The PINN package's errors: what was expected, what came, and where."""
from __future__ import annotations

from sporeling.core import SporelingError

__all__ = ["GeometryError", "ResidualError"]


class GeometryError(SporelingError, ValueError):
    """Points outside a geometry, or a geometry that cannot be built from its arguments."""


class ResidualError(SporelingError, ValueError):
    """A PDE residual asks for a derivative it cannot have (an unknown input, or one the
    network's output does not depend on)."""
