"""Operator parallel: tensor layouts, sharding rules, propagation, redistribution and
per-rank execution of a sharded graph (see the package README, "Operator parallel")."""
from .annotate import strategy
from .api import Shard, layout_from_strategy, shard
from .errors import ShardingError
from .execute import run_sharded
from .layout import Layout
from .propagate import ShardedGraph, propagate
from .redistribution import plan as redistribution_plan
from .rules import OpDims, def_sharding_rule, sharding_rule
from .opsharding import OpSharding, candidates, from_strategy

__all__ = ["strategy", "Shard", "shard", "layout_from_strategy", "ShardingError",
           "run_sharded", "Layout", "ShardedGraph", "propagate", "redistribution_plan",
           "OpDims", "def_sharding_rule", "sharding_rule", "OpSharding",
           "candidates", "from_strategy"]
