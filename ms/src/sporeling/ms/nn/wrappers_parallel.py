"""Wrapper cells of ``ms.nn`` for derivatives and (pipeline/data) parallel training:
``Jvp``, ``Vjp``, ``MicroBatchInterleaved``, ``PipelineCell``, ``GradAccumulationCell``,
``VirtualDatasetCellTriple``, ``DistributedGradReducer``, ``PipelineGradReducer``.

Sporeling runs in one process: the parallel wrappers do what MindSpore's do on a single
device (the micro-batch cells split the batch and add the micro-batch outputs; the
reducers' all-reduce over one rank is the identity).
"""
from __future__ import annotations

import sporeling.expression as sx
from sporeling.core.errors import ArgumentError, ShapeError

from ..ops.functional_math.differential import jvp as _jvp
from ..ops.functional_math.differential import vjp as _vjp
from .cell import Cell

ops = sx.ops

__all__ = ["Jvp", "Vjp", "MicroBatchInterleaved", "PipelineCell", "GradAccumulationCell",
           "VirtualDatasetCellTriple", "DistributedGradReducer", "PipelineGradReducer"]


class Jvp(Cell):
    """``construct(*inputs, v)`` -> ``(fn(*inputs), J v)``: the Jacobian-vector product of
    ``fn`` along ``v`` (a Tensor for one input, a tuple of Tensors for several)."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self, *args):
        *inputs, v = args
        return _jvp(self.fn, tuple(inputs), v)


class Vjp(Cell):
    """``construct(*inputs, v)`` -> ``(fn(*inputs), v^T J)``: the outputs and the tuple of
    gradients of ``<fn(*inputs), v>`` with respect to every input."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self, *args):
        *inputs, v = args
        outputs, vjp_fn = _vjp(self.fn, *inputs)
        return outputs, vjp_fn(v)


def _check_count(owner, name, value):
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ArgumentError(f"{name} must be a positive int", op=owner, expected="int >= 1",
                            got=value)
    return value


class _MicroBatchSum(Cell):
    """Splits every Tensor input into ``_parts`` equal slices along axis 0, runs
    ``network`` on each slice and returns the sum of the outputs."""

    def _split(self, index, inputs):
        parts = []
        for x in inputs:
            if not isinstance(x, sx.Tensor) and not hasattr(x, "shape"):
                parts.append(x)
                continue
            batch = x.shape[0]
            if batch % self._parts:
                raise ShapeError("batch not divisible into micro-batches",
                                 op=type(self).__name__,
                                 expected=f"axis 0 a multiple of {self._parts}",
                                 got=tuple(x.shape))
            size = batch // self._parts
            parts.append(ops.getitem(x, slice(index * size, (index + 1) * size)))
        return parts

    def construct(self, *inputs):
        total = None
        for i in range(self._parts):
            out = self.network(*self._split(i, inputs))
            total = out if total is None else ops.add(total, out)
        return total


class MicroBatchInterleaved(_MicroBatchSum):
    """``network`` on ``interleave_num`` slices of the batch, outputs added (MindSpore
    overlaps their communication; one process runs them in turn)."""

    def __init__(self, network, interleave_num=2):
        super().__init__()
        self.network = network
        self.interleave_num = self._parts = _check_count(type(self).__name__,
                                                         "interleave_num", interleave_num)


class PipelineCell(_MicroBatchSum):
    """``network`` on ``micro_size`` micro-batches, outputs added (the pipeline stages of
    ``stage_config``/``segment_config`` are all this process)."""

    def __init__(self, network, micro_size, stage_config=None, segment_config=None):
        super().__init__()
        self.network = network
        self.micro_size = self._parts = _check_count(type(self).__name__, "micro_size",
                                                     micro_size)
        self.stage_config, self.segment_config = stage_config, segment_config


class GradAccumulationCell(_MicroBatchSum):
    """``network`` on ``micro_size`` micro-batches, outputs added: the gradient of the sum
    is the accumulated micro-batch gradients."""

    def __init__(self, network, micro_size):
        super().__init__()
        self.network = network
        self.micro_size = self._parts = _check_count(type(self).__name__, "micro_size",
                                                     micro_size)


class VirtualDatasetCellTriple(Cell):
    """Runs ``backbone(a, b, c)`` (MindSpore marks the three inputs for dataset sharding in
    semi-auto parallel mode)."""

    def __init__(self, backbone):
        super().__init__(auto_prefix=False)
        self._backbone = backbone

    def construct(self, a, b, c):
        return self._backbone(a, b, c)


class DistributedGradReducer(Cell):
    """``construct(grads)``: the gradients summed over the data-parallel ``group`` and, with
    ``mean``, divided by ``degree`` (default: the group size); ``mean=None`` takes the
    auto-parallel context's ``gradients_mean``. After ``communication.init()`` this is
    ``sporeling.parallel.DistributedGradReducer`` (bucketed all-reduce); without it, one
    process is a group of one."""

    def __init__(self, parameters, mean=None, degree=None, fusion_type=1, group=None):
        super().__init__(auto_prefix=False)
        from .. import communication
        from ..context import get_auto_parallel_context
        if mean is None:
            mean = bool(get_auto_parallel_context("gradients_mean"))
        self.mean, self.fusion_type, self.group = bool(mean), fusion_type, group
        self._reducer = None
        if communication.GlobalComm.INITED:
            from sporeling.parallel import DistributedGradReducer as _Reducer
            world = group in (None, communication.GlobalComm.WORLD_COMM_GROUP)
            self._reducer = _Reducer(parameters, self.mean, degree, None if world else group)
            degree = self._reducer.degree
        self.degree = _check_count("DistributedGradReducer", "degree",
                                   1 if degree is None else degree)

    def construct(self, grads):
        if self._reducer is not None:
            return self._reducer(grads)
        if not self.mean or self.degree == 1:
            return tuple(grads)
        return tuple(ops.div(g, float(self.degree)) for g in grads)


class PipelineGradReducer(Cell):
    """``construct(grads)``: the micro-batch-accumulated gradients divided by
    ``scale_sense``. One process computes the gradient of the summed micro-batch losses
    directly (see ``PipelineCell``), so ``grads`` already holds the accumulation."""

    def __init__(self, parameters, scale_sense=1.0, opt_shard=None):
        super().__init__(auto_prefix=False)
        self.scale_sense = sx.Parameter(sx.Tensor(float(scale_sense), "float32"),
                                        name="scale_sense", requires_grad=False)
        self.opt_shard = bool(opt_shard)

    def construct(self, grads):
        scale = ops.reciprocal(self.scale_sense)
        return tuple(ops.mul(g, ops.cast(scale, g.dtype)) for g in grads)
