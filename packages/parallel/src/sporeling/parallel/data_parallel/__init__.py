"""Data parallelism: every rank holds the whole model, reads its own shard of the data and
all-reduces the gradients (see the "Data parallel" section of the package README).

In ``data_parallel`` mode (``set_auto_parallel_context(parallel_mode="data_parallel")``)
``TrainOneStepCell`` and ``Model`` use it on their own, through expression's
``sporeling_grad_reducer`` hook, and ``sporeling.data`` sources read ``1/size`` of their
rows through data's ``sporeling_data_shard`` hook -- both answered in :mod:`.hooks`.
"""
from .buckets import DEFAULT_BUCKET_CAP_MB, Bucket, plan_buckets
from .reducer import DistributedGradReducer, broadcast_parameters

__all__ = ["DistributedGradReducer", "broadcast_parameters", "Bucket", "plan_buckets",
           "DEFAULT_BUCKET_CAP_MB"]
