"""The pipeline's error: a bad stage annotation, stage count or micro-batch split."""
from __future__ import annotations

import functools

from sporeling.compiler.core import locate
from sporeling.core import SporelingError

from ..errors import ParallelError

__all__ = ["PipelineError", "located"]


class PipelineError(ParallelError, ValueError):
    """Pipeline parallel was set up wrongly: ``pipeline_stages`` not dividing the ranks, a
    cell without ``pipeline_stage``, stages out of order or missing, micro-batches not
    dividing the batch. The message names what was expected, what came and the cell."""


def located(fn):
    """``fn`` whose Sporeling errors end with the user's ``file:line`` (the line that called
    into the pipeline or the sharded optimizer), as a Cell call's do."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except SporelingError as exc:
            locate(exc, traceback=True)
            raise
    return wrapper
