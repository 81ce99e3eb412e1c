"""The operator-parallel error: a strategy that does not fit an op."""
from __future__ import annotations

from ..errors import ParallelError

__all__ = ["ShardingError"]


class ShardingError(ParallelError, ValueError):
    """A sharding strategy does not fit its op: wrong length, a split that is not a power of
    two, more splits than devices, a split that does not divide the dimension, or a split
    of a dimension the op cannot split. The message names the op, the dimension, the
    strategy and the user's source line."""
