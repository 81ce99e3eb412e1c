"""Optimizer sharding (ZeRO stage 1, ``enable_parallel_optimizer``); see :mod:`.optimizer`."""
from .errors import OptimizerShardingError
from .optimizer import ShardedOptimizer, parallel_optimizer

__all__ = ["ShardedOptimizer", "parallel_optimizer", "OptimizerShardingError"]
