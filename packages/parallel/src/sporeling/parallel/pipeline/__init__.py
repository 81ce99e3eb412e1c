"""Pipeline parallel: ``cell.pipeline_stage = k``, ``pipeline_stages`` ranks groups, micro-
batches on the 1F1B schedule (see :mod:`.cell`)."""
from .cell import PipelineCell, PipelineReport, PipelineTrainOneStepCell
from .errors import PipelineError
from .schedule import bubble_fraction, one_f_one_b

__all__ = ["PipelineCell", "PipelineTrainOneStepCell", "PipelineReport", "PipelineError",
           "one_f_one_b", "bubble_fraction"]
