"""The optimizer-sharding error."""
from __future__ import annotations

from ..errors import ParallelError

__all__ = ["OptimizerShardingError"]


class OptimizerShardingError(ParallelError, ValueError):
    """A sharded optimizer was built or called wrongly (not an elementwise ``Optimizer``,
    gradients of the wrong count or shape, a bad ``reduce_gradients``)."""
