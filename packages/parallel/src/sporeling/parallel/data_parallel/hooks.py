"""The parallel plugin's answers to the hooks of the packages below it: expression's
``sporeling_grad_reducer`` (``TrainOneStepCell``'s gradient reducer: data parallel, and
the operator-parallel modes) and data's ``sporeling_data_shard`` (which rows a source reads,
``data_parallel`` only); and the ``bucket_cap_mb`` context key."""
from __future__ import annotations

from sporeling.core import get_context

from ..communication import get_group_size, get_rank, init, is_initialized
from .buckets import DEFAULT_BUCKET_CAP_MB

__all__ = ["grad_reducer", "data_shard", "add_data_parallel_options"]


_OPERATOR_MODES = ("semi_auto_parallel", "auto_parallel")


def _world(modes=("data_parallel",)) -> int:
    """The world size in one of ``modes`` (communication started if need be), else 0."""
    if get_context("parallel_mode") not in modes:
        return 0
    if not is_initialized():
        init()
    return get_group_size()


def grad_reducer(train_cell):
    """A :class:`DistributedGradReducer` over ``train_cell.weights`` on more than one rank
    (building it broadcasts rank 0's weights). ``data_parallel``: the ranks' gradients of
    their shards of the batch, averaged or summed (``gradients_mean``), optimizer state
    sharded with ``enable_parallel_optimizer``. ``semi_auto_parallel``/``auto_parallel``:
    every rank computes the same loss through its part of the sharded Cells, so its
    gradient is that of the sum of the ranks' losses for its copy of each Parameter --
    averaged over the ranks, one device's gradient."""
    if _world() > 1:
        from ..zero.optimizer import shard_train_cell_optimizer
        from .reducer import DistributedGradReducer
        reducer = DistributedGradReducer(train_cell.weights)
        shard_train_cell_optimizer(train_cell)  # enable_parallel_optimizer: ZeRO stage 1
        return reducer
    if _world(_OPERATOR_MODES) > 1:
        from .reducer import DistributedGradReducer
        return DistributedGradReducer(train_cell.weights, mean=True)
    return None


def data_shard():
    """``(group size, rank)`` when data parallel runs on more than one rank."""
    size = _world()
    return (size, get_rank()) if size > 1 else None


def _megabytes(value):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise ValueError("must be a number of MiB > 0")
    return float(value)


def add_data_parallel_options(options) -> None:
    options.add_option("bucket_cap_mb", DEFAULT_BUCKET_CAP_MB, convert=_megabytes,
                       valid="a number of MiB > 0",
                       doc="Data parallel: the most MiB of gradients one fused all-reduce "
                           "carries.")
