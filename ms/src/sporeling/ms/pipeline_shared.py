"""``sync_pipeline_shared_parameters(net)`` (2.10): after a parameter that several pipeline
stages hold changed (an embedding table shared by the first stage's lookup and the last
stage's head), give every rank the value of the first stage holding it (sporeling.parallel's
``pipeline.shared``: one broadcast per shared parameter). With one stage or one process (or
without sporeling.parallel, or before ``communication.init``) there is nothing to do."""
from __future__ import annotations

import importlib.util

__all__ = ["sync_pipeline_shared_parameters"]


def sync_pipeline_shared_parameters(net) -> None:
    """MindSpore 2.10's ``sync_pipeline_shared_parameters(net)``; ``net`` is the pipeline's
    chain (``pipeline_stage`` on its cells, as ``PipelineCell`` takes it)."""
    from sporeling.expression.nn import Cell
    if not isinstance(net, Cell):
        raise TypeError(f"For 'sync_pipeline_shared_parameters', the argument 'net' should be "
                        f"a Cell, but got {type(net)}.")
    if importlib.util.find_spec("sporeling.parallel") is None:
        return
    from sporeling.parallel.communication import is_initialized
    if not is_initialized():
        return
    from sporeling.parallel.pipeline import PipelineCell
    from sporeling.parallel.pipeline.shared import sync_shared_parameters
    sync_shared_parameters(net.network if isinstance(net, PipelineCell) else net)
