"""The rl plugin's errors: each says what was expected, what came and where."""
from __future__ import annotations

from sporeling.core import SporelingError

__all__ = ["RLError", "UnknownEnvError", "SpaceError"]


class RLError(SporelingError, ValueError):
    """Base of the rl plugin's errors (a bad argument, buffer misuse, ...)."""


class UnknownEnvError(RLError):
    """gymnasium has no environment with the id given."""


class SpaceError(RLError):
    """An environment's action or observation space is not one the agents handle
    (they need a ``Discrete`` action space and a flat ``Box`` observation)."""
