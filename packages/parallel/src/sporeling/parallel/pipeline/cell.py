"""``PipelineCell``: a network split into ``pipeline_stages`` stages run on different ranks,
fed micro-batches on the 1F1B schedule.

Rank ``r`` of ``W`` runs stage ``r // (W / S)``; the ``W / S`` ranks of a stage are
data-parallel replicas (each takes its slice of the batch; their gradients are averaged).
Every rank calls the cell with the whole batch, as on one device; stage 0 reads the data,
the last stage the label. Forward activations go to the next stage and the gradients of
those activations come back, over the communicator's send/recv.

A middle stage keeps each micro-batch's forward record until its backward (at most
``S - k`` on stage ``k``); ``recompute=True`` keeps only the activation entering the stage
and runs the forward again in the backward (MindSpore's ``recompute``; random ops would
draw again there). See :mod:`.runner`.

In Graph mode the schedule stays Python (it is a sequence of sends and receives) and each
stage cell's forward compiles on its own; the backward runs eagerly.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from sporeling.core import get_context
from sporeling.expression import Tensor, no_grad
from sporeling.expression.nn import Cell

from ..comm.registry import current
from ..communication import init, is_initialized
from .errors import PipelineError, located
from .p2p import MAX_MICRO, StageLink
from .schedule import bubble_fraction, one_f_one_b
from .runner import StageRunner
from .stages import plan_stages

__all__ = ["PipelineCell", "PipelineTrainOneStepCell", "PipelineReport"]


@dataclass(frozen=True)
class PipelineReport:
    """How this rank's last step went. ``bubble_fraction``: the schedule's idle share
    ``(S - 1) / (M + S - 1)``; ``idle_fraction``: the share of the step this rank spent
    waiting for activations and gradients (measured); ``most_in_flight``: the most
    micro-batches whose forward this rank held at once (1F1B: ``min(S - stage, M)``)."""
    stage: int
    stages: int
    micro_size: int
    replicas: int
    bubble_fraction: float
    idle_fraction: float
    step_seconds: float
    most_in_flight: int


def _numpy(x) -> np.ndarray:
    return x.asnumpy() if hasattr(x, "asnumpy") else np.asarray(x)


def _split(array: np.ndarray, replica: int, replicas: int, micro: int, what: str) -> list:
    batch = array.shape[0] if array.ndim else 0
    if array.ndim == 0 or batch % (replicas * micro):
        raise PipelineError(f"micro-batches do not divide the batch of the {what}",
                            op="PipelineCell", expected=f"a leading dimension divisible by "
                            f"micro_size={micro} x {replicas} replica(s) per stage",
                            got=f"shape {array.shape}")
    part = batch // replicas
    mine = array[replica * part:(replica + 1) * part]
    return [Tensor(m) for m in np.split(mine, micro)]


class PipelineCell(Cell):
    """MindSpore's ``PipelineCell(network, micro_size)``.

    ``network``: a ``WithLossCell`` around a ``SequentialCell`` (or a ``SequentialCell``
    returning the loss) whose cells carry ``pipeline_stage``. ``reduction``: the step's loss
    is the ``"mean"`` of the micro-batch losses (equal to one device's loss and gradients for
    a batch-mean loss) or their ``"sum"`` (MindSpore's PipelineCell). ``recompute``: run a
    stage's forward again in its backward instead of keeping its record. Calling the cell runs
    the forward only; :meth:`value_and_grad` runs the 1F1B step.
    """

    @located
    def __init__(self, network, micro_size: int, reduction: str = "mean",
                 recompute: bool = False):
        super().__init__(auto_prefix=False)
        if isinstance(micro_size, bool) or not isinstance(micro_size, int) or \
                not 1 <= micro_size <= MAX_MICRO:
            raise PipelineError("bad micro_size", op="PipelineCell",
                                expected=f"an int in 1..{MAX_MICRO}", got=repr(micro_size))
        if reduction not in ("mean", "sum"):
            raise PipelineError("bad reduction", op="PipelineCell",
                                expected="'mean' or 'sum'", got=repr(reduction))
        self.network = network
        self.micro_size = micro_size
        self.reduction = reduction
        self.recompute = bool(recompute)
        self.last_report: PipelineReport | None = None

    @located
    def __call__(self, *inputs):
        # the schedule is host-side orchestration of sends and receives: it never compiles
        # as a whole (in Graph mode each stage's cells compile on their own)
        return self.construct(*inputs)

    # ---- placement ------------------------------------------------------------------------
    def _placement(self):
        if not is_initialized():
            init()
        comm = current(None, op="PipelineCell")
        stages = get_context("pipeline_stages")
        if comm.size % stages:
            raise PipelineError("pipeline_stages does not divide the ranks", op="PipelineCell",
                                expected=f"a divisor of the world size {comm.size}",
                                got=f"pipeline_stages={stages}",
                                hint="set_auto_parallel_context(pipeline_stages=...)")
        replicas = comm.size // stages
        stage, replica = divmod(comm.rank, replicas)
        link = StageLink(comm, comm.rank - replicas if stage > 0 else None,
                         comm.rank + replicas if stage < stages - 1 else None)
        return comm, plan_stages(self.network, stages), stage, replica, replicas, link

    def _micro_inputs(self, inputs, replica, replicas):
        want = 1 if self.network_is_bare() else 2
        if len(inputs) != want:
            raise PipelineError("wrong number of inputs", op="PipelineCell",
                                expected="(data, label)" if want == 2 else "(data,)",
                                got=f"{len(inputs)} input(s)")
        names = ("data", "label")
        return [_split(_numpy(x), replica, replicas, self.micro_size, names[i])
                for i, x in enumerate(inputs)]

    def network_is_bare(self) -> bool:
        """True when the network has no loss function of its own (it returns the loss)."""
        return not (hasattr(self.network, "_backbone") and hasattr(self.network, "_loss_fn"))

    # ---- the loss on every rank ------------------------------------------------------------
    def _share_loss(self, comm, losses, last: bool, replicas: int):
        """The step's loss (the micro losses combined over micro-batches and replicas),
        sent from the last stage to every rank in one all-reduce."""
        codes = ("float64", "float32", "float16")
        buf = np.zeros(2, np.float64)
        if last:
            total = float(np.sum([float(_numpy(l)) for l in losses]))
            if self.reduction == "mean":
                total /= len(losses)
            dtype = np.dtype(losses[0].dtype).name
            buf[:] = total / replicas, (codes.index(dtype) if dtype in codes else 1) / replicas
        buf = comm.all_reduce(buf)
        return Tensor(np.asarray(buf[0], codes[int(round(buf[1]))]))

    def construct(self, *inputs):
        """The loss of the whole batch (forward only), on every rank."""
        comm, plan, stage, replica, replicas, link = self._placement()
        micro = self._micro_inputs(inputs, replica, replicas)
        last = stage == len(plan.stages) - 1
        losses = []
        with no_grad():
            for i in range(self.micro_size):
                x = micro[0][i] if stage == 0 else Tensor(link.recv_activation(i))
                out = plan.run(stage, x)
                if not last:
                    link.send_activation(i, _numpy(out))
                else:
                    losses.append(out if plan.loss_fn is None else
                                  plan.loss_fn(out, micro[1][i]))
        link.finish()
        return self._share_loss(comm, losses, last, replicas)

    # ---- training step -------------------------------------------------------------------------
    def stage_group(self) -> str | None:
        """The name of the group of ranks running this rank's stage (its data-parallel
        replicas; made on first use, by its members), None with one rank per stage."""
        comm, _plan, stage, _replica, replicas, _link = self._placement()
        return _replica_group(comm, stage, replicas) if replicas > 1 else None

    @located
    def value_and_grad(self, *inputs, weights=None, reduce_replicas: bool = True):
        """One 1F1B step: ``(loss, gradients)``; the gradients (NumPy arrays) follow
        ``weights`` (default: the network's trainable parameters) and are None for another
        stage's parameters.
        ``reduce_replicas=False`` leaves each replica its own gradients (for a caller that
        reduces them itself: the sharded optimizer reduce-scatters them)."""
        start = time.perf_counter()
        comm, plan, stage, replica, replicas, link = self._placement()
        micro = self._micro_inputs(inputs, replica, replicas)
        weights = list(self.network.trainable_params() if weights is None else weights)
        mine = {id(p) for p in plan.parameters(stage)}
        own = [p for p in weights if id(p) in mine]
        runner = StageRunner(plan, stage, own, link, micro, self.recompute)
        for kind, i in one_f_one_b(stage, len(plan.stages), self.micro_size):
            runner.forward(i) if kind == "F" else runner.backward(i)
        link.finish()
        grads = runner.gradients(1.0 / self.micro_size if self.reduction == "mean" else 1.0)
        if replicas > 1 and grads and reduce_replicas:
            grads = _average_over_replicas(comm, stage, replicas, grads)
        loss = self._share_loss(comm, runner.losses, runner.last, replicas)
        by_id = {id(p): g for p, g in zip(own, grads)}
        seconds = time.perf_counter() - start
        self.last_report = PipelineReport(stage, len(plan.stages), self.micro_size, replicas,
                                          bubble_fraction(len(plan.stages), self.micro_size),
                                          link.idle / seconds, seconds, runner.most_in_flight)
        return loss, tuple(by_id.get(id(p)) for p in weights)


def _replica_group(comm, stage: int, replicas: int) -> str:
    """The name of the group of ranks running ``stage`` (made on first use, by them)."""
    name = f"pipeline-stage-{stage}-x{replicas}"
    if name not in comm.groups:
        comm.create_group(name, range(stage * replicas, (stage + 1) * replicas))
    return name


def _average_over_replicas(comm, stage: int, replicas: int, grads: list) -> list:
    """The gradients averaged over the ranks running the same stage (one fused all-reduce)."""
    sub = comm.groups[_replica_group(comm, stage, replicas)]
    flat = np.concatenate([g.ravel() for g in grads])
    flat = sub.all_reduce(flat, "mean")
    out, at = [], 0
    for g in grads:
        out.append(flat[at:at + g.size].reshape(g.shape).astype(g.dtype, copy=False))
        at += g.size
    return out


class PipelineTrainOneStepCell(Cell):
    """One 1F1B training step of a :class:`PipelineCell`: each rank updates its own stage's
    parameters (the others get gradient None, which optimizers skip); returns the loss.

    With ``enable_parallel_optimizer`` and several ranks per stage, the optimizer is
    sharded over the stage's replicas on the first step (ZeRO-1): the replicas' gradients
    are reduce-scattered instead of all-reduced."""

    def __init__(self, network: PipelineCell, optimizer):
        super().__init__(auto_prefix=False)
        if not isinstance(network, PipelineCell):
            raise PipelineError("not a PipelineCell", op="PipelineTrainOneStepCell",
                                expected="PipelineCell(network, micro_size)",
                                got=type(network).__name__)
        self.network = network
        self.optimizer = optimizer
        self._sharded: bool | None = None  # decided on the first step

    @located
    def __call__(self, *inputs):
        # the schedule is host-side orchestration of sends and receives: it never compiles
        # as a whole (in Graph mode each stage's cells compile on their own)
        return self.construct(*inputs)

    def construct(self, *inputs):
        if self._sharded is None:
            self._sharded = self._shard_optimizer()
        loss, grads = self.network.value_and_grad(*inputs, weights=self.optimizer.parameters,
                                                  reduce_replicas=not self._sharded)
        self.optimizer(grads)
        return loss

    def _shard_optimizer(self) -> bool:
        from sporeling.expression.optim import Optimizer

        from ..zero.optimizer import ShardedOptimizer
        if not get_context("enable_parallel_optimizer") or \
                not isinstance(self.optimizer, Optimizer):
            return False
        group = self.network.stage_group()
        if group is None:
            return False
        self.optimizer = ShardedOptimizer(self.optimizer, group, reduce_gradients="mean")
        return True
