"""ZeRO stage 1: an optimizer whose state is split over the data-parallel ranks.

``ShardedOptimizer(optimizer)`` wraps any elementwise ``sporeling.expression.optim``
optimizer (SGD, Momentum, Adam, AdamW, Adagrad, RMSProp): each rank keeps the optimizer
state of its ``1/N`` of every parameter's elements, updates only those, and one all-gather
per dtype puts the updated parameters together on every rank. With
``reduce_gradients="mean"`` (or ``"sum"``) it takes each rank's *local* gradients and
reduce-scatters them, so a rank only ever receives the gradient of its own shard: the
reduce-scatter plus the all-gather move what one all-reduce would.

    >>> import numpy as np
    >>> from sporeling.expression.optim import Adam
    >>> from sporeling.parallel.testing import run_local
    >>> def rank():
    ...     w = np.arange(6.0)
    ...     opt = ShardedOptimizer(Adam([w], 0.1))
    ...     opt((np.ones(6),))
    ...     return np.round(w, 6).tolist(), opt.memory_report()["state_bytes"]
    >>> run_local(2, rank)  # both ranks end with the whole update; each holds half the state
    [([-0.1, 0.9, 1.9, 2.9, 3.9, 4.9], 48), ([-0.1, 0.9, 1.9, 2.9, 3.9, 4.9], 48)]
"""
from __future__ import annotations

import numpy as np

from sporeling.core import get_context
from sporeling.expression.optim import Optimizer
from sporeling.expression.optim._arrays import compute_dtype, to_numpy, write

from ..comm.registry import current
from ..communication import init, is_initialized
from ..pipeline.errors import located
from .errors import OptimizerShardingError
from .layout import ShardLayout

__all__ = ["ShardedOptimizer", "parallel_optimizer", "shard_train_cell_optimizer"]


def _label(p, i: int) -> str:
    return getattr(p, "name", None) or f"parameter {i}"


class ShardedOptimizer:
    """``optimizer`` with its state sharded over ``group`` (None: the world); see the
    module doc. Called like the optimizer (``opt(grads)``), with its ``parameters``,
    ``global_step``, ``get_lr()`` and the rest passed through."""

    #: its collectives run on NumPy between ranks: in Graph mode a TrainOneStepCell compiles
    #: the loss and gradients and runs this update as Python (declared, see cell_call)
    _eager_update = True

    @located
    def __init__(self, optimizer, group: str | None = None, reduce_gradients: str | None = None):
        if not isinstance(optimizer, Optimizer):
            raise OptimizerShardingError("not a sporeling optimizer", op="ShardedOptimizer",
                                         expected="an instance of sporeling.expression.optim."
                                         "Optimizer (SGD, Momentum, Adam, ...)",
                                         got=type(optimizer).__name__)
        if reduce_gradients not in (None, "sum", "mean"):
            raise OptimizerShardingError("bad reduce_gradients", op="ShardedOptimizer",
                                         expected="None (gradients already reduced), 'sum' "
                                         "or 'mean'", got=repr(reduce_gradients))
        self.optimizer = optimizer
        if group is None and not is_initialized():
            init()
        self.comm = current(group, op="ShardedOptimizer")
        self.reduce_gradients = reduce_gradients
        arrays = [to_numpy(p) for p in optimizer.parameters]
        self.layout = ShardLayout([a.size for a in arrays],
                                  [np.dtype(compute_dtype(a.dtype)) for a in arrays],
                                  self.comm.size, self.comm.rank)
        self._states: list[dict | None] = [None] * len(arrays)

    # ---- the optimizer's face -------------------------------------------------------------
    @property
    def parameters(self) -> tuple:
        return self.optimizer.parameters

    @property
    def global_step(self) -> int:
        return self.optimizer.global_step

    @global_step.setter
    def global_step(self, value: int) -> None:
        self.optimizer.global_step = value

    def __getattr__(self, name):  # get_lr, learning_rate, ... of the wrapped optimizer
        if name == "optimizer":
            raise AttributeError(name)
        return getattr(self.optimizer, name)

    def __repr__(self) -> str:
        return f"ShardedOptimizer({self.optimizer!r}, rank {self.comm.rank} of {self.comm.size})"

    # ---- the step -------------------------------------------------------------------------
    def _checked(self, gradients) -> list:
        params = self.optimizer.parameters
        if len(gradients) != len(params):
            raise OptimizerShardingError("wrong number of gradients", op="ShardedOptimizer",
                                         expected=f"{len(params)} (one per parameter, in "
                                         "optimizer.parameters order)", got=len(gradients))
        out = []
        for i, (p, g) in enumerate(zip(params, gradients)):
            if g is not None:
                g = to_numpy(g)
                if g.shape != to_numpy(p).shape:
                    raise OptimizerShardingError(
                        f"gradient of {_label(p, i)} has the wrong shape",
                        op="ShardedOptimizer", expected=f"{to_numpy(p).shape} (the "
                        "parameter's)", got=g.shape)
            out.append(g)
        return out

    def _my_gradients(self, dt, entries, width, grads) -> dict[int, np.ndarray]:
        """This rank's chunk of each gradient (reduce-scattered when they are local)."""
        if self.reduce_gradients is None:
            return {s.index: grads[s.index].reshape(-1)[slice(*self.layout.bounds(s))]
                    .astype(dt, copy=False) for s, _off in entries}
        flats = {s.index: grads[s.index].reshape(-1).astype(dt, copy=False)
                 for s, _off in entries}
        mine = self.comm.reduce_scatter(self.layout.pack_all(dt, entries, width, flats),
                                        self.reduce_gradients)[0]
        out = {}
        for s, offset in entries:
            lo, hi = self.layout.bounds(s)
            out[s.index] = mine[offset:offset + hi - lo]
        return out

    @located
    def __call__(self, gradients) -> bool:
        """One update: each rank steps its shards, then every rank gets every parameter
        (those given a gradient; the ranks of the group must agree on which)."""
        opt = self.optimizer
        grads = self._checked(gradients)
        params = opt.parameters
        lrs = [lr.at(opt.global_step) for lr in opt._group_lrs]
        decays = opt._decays_at(opt.global_step)
        inv_scale = 1.0 / opt.loss_scale
        active = {i for i, g in enumerate(grads) if g is not None}
        for dt, (entries, width) in self.layout.arrange(active).items():
            my_grads = self._my_gradients(dt, entries, width, grads)
            mine = np.zeros(width, dt)
            for s, offset in entries:
                lo, hi = self.layout.bounds(s)
                w = to_numpy(params[s.index]).reshape(-1)[lo:hi].astype(dt, copy=True)
                g = my_grads[s.index]
                if inv_scale != 1.0:
                    g = g * inv_scale
                wd = decays[s.index]
                if wd and not opt._decoupled_weight_decay:
                    g = g + wd * w
                if self._states[s.index] is None:
                    self._states[s.index] = opt._init_state(w)
                mine[offset:offset + hi - lo] = opt._update_arrays(
                    w, g, self._states[s.index], lrs[opt._group_of[s.index]], wd)
            gathered = self.comm.all_gather(mine).reshape(self.comm.size, -1)
            for s, offset in entries:
                p = params[s.index]
                write(p, self.layout.unpack(gathered, s, offset).reshape(to_numpy(p).shape))
        opt.global_step += 1
        return True

    construct = __call__

    # ---- memory ---------------------------------------------------------------------------
    def memory_report(self) -> dict:
        """Optimizer-state bytes: ``state_bytes`` on this rank, ``unsharded_state_bytes``
        what one unsharded optimizer holds (for the parameters stepped so far), their
        ``ratio``, and ``parameter_bytes`` (every rank keeps whole parameters: stage 1)."""
        here = whole = 0
        for s in self.layout.slots:
            for value in (self._states[s.index] or {}).values():
                if isinstance(value, np.ndarray) and value.ndim:  # not a step counter
                    here += value.nbytes
                    whole += value.itemsize * s.size
        params = sum(to_numpy(p).nbytes for p in self.optimizer.parameters)
        return {"rank": self.comm.rank, "ranks": self.comm.size, "state_bytes": here,
                "unsharded_state_bytes": whole, "ratio": here / whole if whole else 0.0,
                "parameter_bytes": params}


def parallel_optimizer(optimizer, group: str | None = None,
                       reduce_gradients: str | None = None):
    """``optimizer`` sharded when ``enable_parallel_optimizer`` is set and ``group`` has more
    than one rank; ``optimizer`` itself otherwise."""
    if not get_context("enable_parallel_optimizer"):
        return optimizer
    if current(group, op="parallel_optimizer").size == 1:
        return optimizer
    return ShardedOptimizer(optimizer, group, reduce_gradients)


def shard_train_cell_optimizer(train_cell) -> None:
    """With ``enable_parallel_optimizer``, replace ``train_cell.optimizer`` by its sharded
    form; its gradients arrive already reduced (data parallel's reducer runs first).
    Called when data parallel sets up a ``TrainOneStepCell``."""
    opt = train_cell.optimizer
    if isinstance(opt, Optimizer):
        train_cell.optimizer = parallel_optimizer(opt)
