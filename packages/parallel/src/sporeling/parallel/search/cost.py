"""The cost model: what a strategy costs per training step on each device.

* compute -- an op's forward FLOPs (times 3 for forward + backward) divided by the blocks
  its strategy cuts the work into, at the measured FLOP rate;
* communication -- every redistribution between ops (each byte moves once forward and once
  backward, as all_gather and reduce_scatter are each other's transposes) and the gradient
  all-reduce of every parameter over the devices that replicate it, at the communicator's
  measured bandwidth and latency (a latency per two-rank step);
* memory -- parameter blocks (weight, gradient and two optimizer moments) plus the
  activations kept for backward, per device.

:class:`Machine` holds the three rates; :func:`measure` times them on this machine (a NumPy
matmul for FLOPs, the current communicator -- or two ``local`` thread-ranks -- for bytes).
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..operator.layout import Layout
from ..operator.redistribution import plan_shape

__all__ = ["Machine", "measure", "agreed_machine", "op_flops", "CostModel"]


@dataclass(frozen=True)
class Machine:
    flops: float = 1e11          # FLOP/s of one device
    bandwidth: float = 1e10      # bytes/s a device sends
    latency: float = 1e-5        # seconds per collective step
    memory: float | None = None  # bytes per device (None: unlimited)


_MEASURED: list = []


def measure(comm=None, *, repeat: int = 3) -> Machine:
    """This machine's FLOP rate and the communicator's bandwidth and latency (measured once
    per process; ``comm``: a communicator of 2+ ranks, else two local thread-ranks)."""
    if _MEASURED and comm is None:
        return _MEASURED[0]
    a = np.random.default_rng(0).standard_normal((384, 384)).astype(np.float32)
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        a @ a
        best = min(best, time.perf_counter() - t)
    flops = 2 * 384 ** 3 / max(best, 1e-9)

    def timing(c):
        small, big = np.ones(16, np.float32), np.ones(1 << 20, np.float32)  # 64 B, 4 MiB
        times = []
        for buf in (small, big):
            c.all_reduce(buf)
            best = float("inf")
            for _ in range(repeat):
                t = time.perf_counter()
                c.all_reduce(buf)
                best = min(best, time.perf_counter() - t)
            times.append(best)
        return times

    if comm is not None and comm.size > 1:
        t_small, t_big = timing(comm)
    else:
        from ..comm import current
        from ..testing import run_local
        t_small, t_big = run_local(2, lambda: timing(current()))[0]
    latency = max(t_small, 1e-7)
    bandwidth = (4 << 20) / max(t_big - t_small, 1e-9)
    machine = Machine(flops, bandwidth, latency)
    if comm is None:
        _MEASURED.append(machine)
    return machine


def agreed_machine(comm) -> Machine:
    """The rates every rank plans with. Ranks in separate processes (MPI) each plan for
    themselves, so they must use the same numbers or their plans -- and collectives -- could
    differ: rank 0's measurement is broadcast. Thread-ranks share one plan already."""
    machine = measure()
    if comm is None or comm.size == 1 or comm.backend == "local":
        return machine
    rates = np.array([machine.flops, machine.bandwidth, machine.latency], np.float64)
    flops, bandwidth, latency = comm.broadcast(rates, root=0)
    return Machine(float(flops), float(bandwidth), float(latency), machine.memory)


def _prod(shape) -> int:
    n = 1
    for d in shape:
        n *= int(d)
    return n


def op_flops(eq) -> float:
    """Forward FLOPs of one equation (multiply-adds count 2)."""
    name = eq.prim.name
    out = _prod(eq.outputs[0].aval.shape) if eq.outputs else 0
    if name == "matmul":
        return 2.0 * out * int(eq.inputs[0].aval.shape[-1])
    if name == "conv2d":
        w = eq.inputs[1].aval.shape
        return 2.0 * out * _prod(w[1:])
    if name in ("softmax", "log_softmax", "normalize"):
        return 5.0 * out
    if name in ("sum", "mean", "max", "min", "logsumexp"):
        return float(_prod(eq.inputs[0].aval.shape))
    return float(out)


class CostModel:
    """Costs of strategies of one graph's equations on ``2**n_axes`` devices (seconds)."""

    def __init__(self, machine: Machine, params: set | None = None):
        self.m = machine
        self.params = params or set()     # graph-input Vars that are trained parameters

    # -- pieces ---------------------------------------------------------------------------
    def redistribution(self, src: Layout, dst: Layout, shape, itemsize) -> tuple[float, int]:
        """(seconds, bytes sent per device) to move a tensor from ``src`` to ``dst``."""
        if src == dst:
            return 0.0, 0
        moving, factor = plan_shape(src, dst)
        nbytes = int(factor * src.local_size(shape) * itemsize)
        return moving * self.m.latency + nbytes / self.m.bandwidth, nbytes

    def edge(self, src: Layout, dst: Layout, var) -> tuple[float, int]:
        """Forward and backward cost of one redistribution."""
        t, b = self.redistribution(src, dst, tuple(var.aval.shape), var.aval.dtype.itemsize)
        return 2 * t, 2 * b

    def grad_sync(self, layout: Layout, var) -> tuple[float, int]:
        """The gradient all-reduce of a parameter over the axes that replicate it."""
        rep = layout.n_axes - len({a for ax in layout.dims for a in ax})
        if rep <= 0:
            return 0.0, 0
        local = layout.local_size(var.aval.shape) * var.aval.dtype.itemsize
        group = 2 ** rep
        nbytes = int(2 * local * (group - 1) / group)  # ring all-reduce
        return 2 * rep * self.m.latency + nbytes / self.m.bandwidth, nbytes

    def compute(self, eq, sharding, dims) -> float:
        blocks = 1
        for lab in dims.labels:
            blocks *= 2 ** len(sharding.of(lab))
        return 3.0 * op_flops(eq) / blocks / self.m.flops

    def memory(self, eq, sharding, dims) -> int:
        """Bytes this equation's results (and parameter operands) hold per device."""
        total = 0
        for v, lay in zip(eq.outputs, sharding.out_layouts(dims)):
            total += lay.local_size(v.aval.shape) * v.aval.dtype.itemsize
        for v, lay in zip(eq.inputs, sharding.in_layouts(dims)):
            if v in self.params:
                total += 4 * lay.local_size(v.aval.shape) * v.aval.dtype.itemsize
        return total

    def unary(self, eq, sharding, dims, outputs: dict | None = None) -> float:
        """Seconds of one strategy on its own: compute, gradient sync of its parameters,
        handing graph results back whole; prohibitive when its parameters do not fit."""
        t = self.compute(eq, sharding, dims)
        for v, lay in zip(eq.inputs, sharding.in_layouts(dims)):
            if v in self.params:
                t += self.grad_sync(lay, v)[0]
        if outputs:
            for v, lay in zip(eq.outputs, sharding.out_layouts(dims)):
                if v in outputs:
                    t += self.edge(lay, outputs[v], v)[0]
        if self.m.memory is not None and self.param_memory(eq, sharding, dims) > self.m.memory:
            t += 1e9  # its weights alone do not fit a device: only as a last resort
        return t

    def param_memory(self, eq, sharding, dims) -> int:
        """Bytes of this equation's parameter blocks with their gradients and two optimizer
        moments -- what a strategy trades against communication (activations shrink with
        the device count whatever the strategy)."""
        return sum(4 * lay.local_size(v.aval.shape) * v.aval.dtype.itemsize
                   for v, lay in zip(eq.inputs, sharding.in_layouts(dims))
                   if v in self.params)
