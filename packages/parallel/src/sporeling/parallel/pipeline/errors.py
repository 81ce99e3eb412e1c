"""The pipeline's error: a bad stage annotation, stage count or micro-batch split."""
from __future__ import annotations

from ..errors import ParallelError

__all__ = ["PipelineError"]


class PipelineError(ParallelError, ValueError):
    """Pipeline parallel was set up wrongly: ``pipeline_stages`` not dividing the ranks, a
    cell without ``pipeline_stage``, stages out of order or missing, micro-batches not
    dividing the batch. The message names what was expected, what came and the cell."""
