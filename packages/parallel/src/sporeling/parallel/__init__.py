"""sporeling.parallel: communication on MPI (and thread-ranks), the parallel context, and the
collectives as differentiable compiler primitives.

    >>> import sporeling.parallel as sp
    >>> sp.init(); sp.get_rank(), sp.get_group_size()
    (0, 1)
    >>> sp.release()

Data, operator and pipeline parallelism and the strategy search build on these pieces.
"""
from . import comm
from .comm import Communicator, Handle, current
from .communication import (create_group, destroy_group, get_group_rank_from_world_rank,
                            get_group_size, get_rank, get_world_rank_from_group_rank, init,
                            is_initialized, release)
from .context import (PARALLEL_MODES, SEARCH_MODES, get_auto_parallel_context,
                      reset_auto_parallel_context, set_auto_parallel_context)
from .errors import (CollectiveMismatchError, CollectiveTimeoutError, CommunicatorError,
                     ParallelError, RankFailedError)
from .primitives import (all_gather, all_reduce, all_to_all, broadcast, recv, reduce,
                         reduce_scatter, send)

__all__ = [
    "comm", "Communicator", "Handle", "current",
    "init", "release", "get_rank", "get_group_size", "create_group", "destroy_group",
    "get_world_rank_from_group_rank", "get_group_rank_from_world_rank", "is_initialized",
    "set_auto_parallel_context", "get_auto_parallel_context", "reset_auto_parallel_context",
    "PARALLEL_MODES", "SEARCH_MODES",
    "ParallelError", "CommunicatorError", "CollectiveTimeoutError", "RankFailedError",
    "CollectiveMismatchError", "all_reduce", "all_gather", "reduce_scatter", "broadcast", "reduce", "all_to_all", "send",
    "recv",
]

# operator parallel and the strategy search (sx.shard and Cell.shard reach them through
# expression's sporeling_shard hook, answered in .plugin)
from .operator import ShardingError, shard, strategy  # noqa: E402
from .search import strategy_table  # noqa: E402  (the search function: search.search)

__all__ += ["shard", "strategy", "ShardingError", "strategy_table"]

# pipeline parallel and optimizer sharding (ZeRO-1)
from .pipeline import PipelineCell, PipelineError, PipelineTrainOneStepCell  # noqa: E402
from .zero import OptimizerShardingError, ShardedOptimizer, parallel_optimizer  # noqa: E402

__all__ += ["PipelineCell", "PipelineTrainOneStepCell", "PipelineError", "ShardedOptimizer",
            "parallel_optimizer", "OptimizerShardingError"]

# data parallel (TrainOneStepCell/Model use it on their own in data_parallel mode)
from .data_parallel import DistributedGradReducer, broadcast_parameters  # noqa: E402

__all__ += ["DistributedGradReducer", "broadcast_parameters"]
