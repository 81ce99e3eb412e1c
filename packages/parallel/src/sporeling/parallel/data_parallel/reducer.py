"""``DistributedGradReducer``: data parallelism's gradient all-reduce (MindSpore's
``nn.DistributedGradReducer``), bucketed and overlapped with backward.

PyNative mode: ``gradient_ready(parameter, gradient)`` is called by the backward pass the
moment a gradient is final (``sporeling.expression.autograd.on_gradient_ready``); the
gradient is copied into its bucket's flat buffer, and once every gradient of a bucket is in,
the bucket's all-reduce starts *nonblocking* -- while backward computes the earlier layers.
Calling the reducer with the step's gradients starts what has not started (parameters
backward never reached), waits for every bucket and returns the reduced gradients (views
of the buckets' buffers, new every step).

Graph mode: the same, inside the compiled step. ``gradient_ready`` is called during the
*traced* backward too (on tracers): a full bucket's gradients are flattened and concatenated
and an ``all_reduce_start`` is bound right there -- amid the backward equations -- and calling
the reducer binds each bucket's ``all_reduce_wait`` and splits the result back
(:mod:`sporeling.parallel.split_phase`). The compiled step starts each bucket's reduction as
soon as its gradients are computed and waits only before the update.

    >>> import numpy as np
    >>> import sporeling.expression as sx
    >>> from sporeling.parallel.testing import run_local
    >>> def rank():
    ...     from sporeling.parallel import get_rank
    ...     w = sx.Parameter(np.zeros(2) + get_rank(), name="w")   # differs per rank...
    ...     reducer = DistributedGradReducer([w], mean=True)       # ...broadcast from rank 0
    ...     g = reducer((sx.Tensor(np.array([1.0, 2.0]) * (get_rank() + 1)),))
    ...     return w.asnumpy().tolist(), g[0].asnumpy().tolist()
    >>> run_local(2, rank)
    [([0.0, 0.0], [1.5, 3.0]), ([0.0, 0.0], [1.5, 3.0])]
"""
from __future__ import annotations

import numpy as np

from sporeling.core import get_context
from sporeling.expression import Tensor, ops
from sporeling.expression.graph.tracing import is_tracing
from sporeling.expression.tensor.tensor import wrap

from ..comm.registry import current
from ..errors import ParallelError
from ..split_phase import all_reduce_start, all_reduce_wait
from .buckets import DEFAULT_BUCKET_CAP_MB, plan_buckets

__all__ = ["DistributedGradReducer", "broadcast_parameters"]


def broadcast_parameters(params, root: int = 0, group: str | None = None) -> None:
    """Give every rank ``root``'s values of ``params`` (in place, keeping the objects), then
    wait for every rank, so that no rank goes on while another still writes its weights."""
    comm = current(group, op="broadcast_parameters")
    if comm.size == 1:
        return
    for p in params:
        value = comm.broadcast(p.asnumpy(), root)
        if comm.rank != root:
            p.set_data(value)
    comm.barrier()


class DistributedGradReducer:
    """All-reduce the gradients of ``parameters`` over ``group`` (None: the world).

    ``mean``: divide by ``degree`` (default: the ``gradients_mean`` context key; ``degree``
    defaults to the group size). ``bucket_cap_mb``: the most MiB one fused all-reduce
    carries (default: the ``bucket_cap_mb`` context key, 25). ``broadcast``: copy rank 0's
    parameter values to every rank now (MindSpore's data parallel start).
    ``last_step_events`` lists, for the last PyNative step, ``("ready", name)`` as backward
    reported each gradient final and ``("start", bucket)`` as each bucket's all-reduce
    started -- the overlap, in order.
    """

    def __init__(self, parameters, mean: bool | None = None, degree: int | None = None,
                 group: str | None = None, bucket_cap_mb: float | None = None,
                 broadcast: bool = True):
        self.parameters = tuple(parameters)
        self.group = group
        self.comm = current(group, op="DistributedGradReducer")
        self.mean = bool(get_context("gradients_mean")) if mean is None else bool(mean)
        self.degree = self.comm.size if degree is None else int(degree)
        if self.degree < 1:
            raise ParallelError("bad degree", op="DistributedGradReducer",
                                expected="an int >= 1", got=degree)
        cap = get_context("bucket_cap_mb") if bucket_cap_mb is None else bucket_cap_mb
        if isinstance(cap, bool) or not isinstance(cap, (int, float)) or not cap > 0:
            raise ParallelError("bad bucket_cap_mb", op="DistributedGradReducer",
                                expected="a number of MiB > 0", got=repr(cap))
        self.bucket_cap_mb = float(cap)
        self.buckets = plan_buckets(self.parameters, int(self.bucket_cap_mb * 2**20))
        self._where = {}  # id(parameter) -> (bucket, index)
        for b, bucket in enumerate(self.buckets):
            for index in bucket.indices:
                self._where[id(self.parameters[index])] = (b, index)
        self.last_step_events: list[tuple] = []
        self._reset()
        if broadcast:
            broadcast_parameters(self.parameters, 0, group)

    def __repr__(self) -> str:
        return (f"<DistributedGradReducer {len(self.parameters)} parameters in "
                f"{len(self.buckets)} bucket(s) of <= {self.bucket_cap_mb:g} MiB over "
                f"{self.comm.size} ranks, {'mean' if self.mean else 'sum'}>")

    # ---- PyNative: buckets filled and started during backward --------------------------------
    def _reset(self) -> None:
        self._flats: list = [None] * len(self.buckets)
        self._missing = [len(b.indices) for b in self.buckets]
        self._filled: set[int] = set()
        self._handles: list = [None] * len(self.buckets)
        self._next = 0  # buckets start in index order: the same order on every rank
        self._events: list[tuple] | None = None

    def _op(self) -> str:
        return "mean" if self.mean and self.degree == self.comm.size else "sum"

    def _put(self, b: int, index: int, grad) -> None:
        bucket = self.buckets[b]
        if self._flats[b] is None:
            self._flats[b] = np.empty(bucket.numel, bucket.dtype)  # new each step: results
        k = bucket.position[index]                                # are views of it
        g = np.asarray(grad)
        if g.shape != bucket.shapes[k]:
            raise ParallelError("gradient of the wrong shape", op="DistributedGradReducer",
                                expected=f"shape {bucket.shapes[k]} for parameter "
                                         f"{self.parameters[index].name!r}",
                                got=f"shape {g.shape}")
        self._flats[b][bucket.offsets[k]:bucket.offsets[k] + bucket.sizes[k]] = g.reshape(-1)
        self._filled.add(index)
        self._missing[b] -= 1

    def _start_ready(self) -> None:
        """Start every full bucket whose predecessors have started. Collectives must be
        issued in one order on every rank (MPI matches them by order), and gradients may
        become final in another order on another rank; bucket order is the same everywhere."""
        while self._next < len(self.buckets) and self._missing[self._next] == 0:
            b = self._next
            flat = self._flats[b]
            self._handles[b] = self.comm.iall_reduce(flat, self._op(), out=flat)
            if self._events is not None:
                self._events.append(("start", b))
            self._next += 1

    def gradient_ready(self, parameter, grad) -> None:
        """Backward's news that ``parameter``'s gradient is final: into its bucket; a full
        bucket starts its all-reduce; started ones are nudged on (MPI progresses when
        polled)."""
        where = self._where.get(id(parameter))
        if where is None or where[1] in self._filled:
            return
        if is_tracing():
            self._traced_ready(*where, grad)
            return
        if self._events is None:
            self._events = []
        self._events.append(("ready", parameter.name))
        b, index = where
        self._put(b, index, grad)
        for h in self._handles:
            if h is not None:
                h.test()
        if self._missing[b] == 0:
            self._start_ready()

    def __call__(self, grads):
        grads = tuple(grads)
        if len(grads) != len(self.parameters):
            raise ParallelError("one gradient per parameter", op="DistributedGradReducer",
                                expected=f"{len(self.parameters)} gradients",
                                got=f"{len(grads)}")
        if is_tracing():
            return self._traced(grads)
        if self.comm.size == 1 and not self.mean:
            self._reset()
            return grads
        try:
            for b, bucket in enumerate(self.buckets):  # what backward did not report
                for index in bucket.indices:
                    if index not in self._filled:
                        g = grads[index]
                        self._put(b, index, g.asnumpy() if isinstance(g, Tensor) else g)
            self._start_ready()
            out = list(grads)
            for b, bucket in enumerate(self.buckets):
                flat = self._handles[b].wait()
                if self.mean and self._op() == "sum":
                    flat /= self.degree
                for k, index in enumerate(bucket.indices):
                    view = flat[bucket.offsets[k]:bucket.offsets[k] + bucket.sizes[k]]
                    out[index] = wrap(view.reshape(bucket.shapes[k]))
            self.last_step_events = self._events or []
            return tuple(out)
        finally:
            self._reset()

    # ---- Graph mode: split-phase collectives in the traced step -------------------------------
    def _traced_ready(self, b: int, index: int, grad) -> None:
        if self._flats[b] is None:
            self._flats[b] = {}
        self._flats[b][index] = grad if isinstance(grad, Tensor) else wrap(grad)
        self._filled.add(index)
        self._missing[b] -= 1
        self._start_traced()

    def _start_traced(self) -> None:
        """Bind ``all_reduce_start`` for every full bucket in bucket order (every rank's
        graph starts them in the same order)."""
        while self._next < len(self.buckets) and self._missing[self._next] == 0:
            b = self._next
            bucket = self.buckets[b]
            parts = [ops.reshape(ops.cast(self._flats[b][i], bucket.dtype), (-1,))
                     for i in bucket.indices]
            flat = parts[0] if len(parts) == 1 else ops.concat(parts, 0)
            self._handles[b] = (all_reduce_start(flat, self._op(), self.group), flat)
            self._next += 1

    def _traced(self, grads) -> tuple:
        try:
            for b, bucket in enumerate(self.buckets):  # what the traced backward did not report
                for index in bucket.indices:
                    if index not in self._filled:
                        self._traced_ready(b, index, grads[index])
            out = list(grads)
            op = self._op()
            for b, bucket in enumerate(self.buckets):
                token, flat = self._handles[b]
                total = all_reduce_wait(token, flat, op, self.group)
                if self.mean and op == "sum":
                    total = total / self.degree
                for k, index in enumerate(bucket.indices):
                    start = bucket.offsets[k]
                    out[index] = ops.reshape(total[start:start + bucket.sizes[k]],
                                             bucket.shapes[k])
            return tuple(out)
        finally:
            self._reset()
