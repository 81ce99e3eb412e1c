"""Static memory planning (MindSpore's SOMAS): every planned buffer gets an offset in one
arena, so that buffers alive at the same instruction never overlap.

1. Liveness (:mod:`.liveness`) gives each plannable value an interval of instructions
   ``[defined, end]``, ``end`` extended through the views of it.
2. In-place reuse: an elementwise kernel whose input dies at this instruction, with the
   output's shape and dtype, writes into that input's buffer -- the two share one buffer.
3. Offsets: greedy placement against the already-placed buffers whose intervals overlap,
   in several orders (largest first, longest-lived first, ...) with best and first fit;
   the smallest arena wins. The lower bound -- the most bytes alive at one instruction --
   says how close it came.

Graph outputs (and buffers they view) are never planned: they outlive the call.

    >>> steps = [Step((0,), (1,), "out"), Step((1,), (2,), "out", (0,)),
    ...          Step((2,), (3,), "out")]
    >>> plan = plan_memory(steps, {1: 256, 2: 256, 3: 64}, {1: "a", 2: "a", 3: "b"}, (3,))
    >>> plan.offsets[1] == plan.offsets[2], plan.in_place, plan.arena_bytes, plan.lower_bound
    (True, [(1, 1, 2)], 256, 256)
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .liveness import Liveness, Step, analyse

__all__ = ["Buffer", "MemoryPlan", "plan_memory", "lower_bound", "pack"]


@dataclass
class Buffer:
    """Arena memory shared by ``values`` (more than one after in-place reuse)."""
    values: list
    size: int
    start: int
    end: int
    offset: int = -1


@dataclass
class MemoryPlan:
    """Offsets of the planned values and how good the plan is."""
    offsets: dict = field(default_factory=dict)        # value -> byte offset in the arena
    arena_bytes: int = 0
    lower_bound: int = 0
    in_place: list = field(default_factory=list)       # (step, input value, output value)
    buffers: list = field(default_factory=list)
    strategy: str = ""
    liveness: Liveness | None = None

    @property
    def ratio(self) -> float:
        """Arena size over the lower bound (1.0 is optimal; 1.0 for an empty plan)."""
        return self.arena_bytes / self.lower_bound if self.lower_bound else 1.0

    def stats(self) -> dict:
        return {"arena_bytes": self.arena_bytes, "lower_bound": self.lower_bound,
                "ratio": self.ratio, "in_place_reuses": len(self.in_place),
                "planned_values": len(self.offsets), "buffers": len(self.buffers),
                "strategy": self.strategy}


def _aligned(n: int, alignment: int) -> int:
    return -(-n // alignment) * alignment


def _buffers(steps, sizes, keys, live, in_place: bool, reuses: list) -> list[Buffer]:
    """One buffer per planned value, in-place chains merged into one."""
    buffer_of: dict = {}
    buffers: list[Buffer] = []
    for t, step in enumerate(steps):
        if step.kind != "out" or len(step.outputs) != 1:
            continue
        o = step.outputs[0]
        if o not in sizes or o in live.escaping:
            continue
        target = _reuse(t, step, o, keys, live, buffer_of) if in_place else None
        if target is not None:
            buf = buffer_of[target]
            buf.values.append(o)
            buf.end = live.end[o]
            buffer_of[o] = buf
            reuses.append((t, target, o))
        else:
            buf = buffer_of[o] = Buffer([o], sizes[o], t, live.end[o])
            buffers.append(buf)
    return buffers


def _reuse(t, step, o, keys, live, buffer_of):
    """The input whose buffer ``o`` may take over at step ``t``, or None."""
    for pos in step.in_place:
        q = step.inputs[pos]
        if q not in buffer_of or live.end[q] != t or keys.get(q) != keys.get(o):
            continue
        # every read of q here must be at a position the kernel allows, and no other
        # operand may view q's memory (a transposed view would be read after the write)
        if all((v != q or i in step.in_place) and (v == q or q not in live.roots[v])
               for i, v in enumerate(step.inputs)):
            return q
    return None


def lower_bound(buffers: list[Buffer], steps: int) -> int:
    """The most bytes of ``buffers`` alive at any one step."""
    if not buffers:
        return 0
    diff = np.zeros(steps + 2, np.int64)
    for b in buffers:
        diff[b.start] += b.size
        diff[b.end + 1] -= b.size
    return int(np.cumsum(diff).max())


_ORDERS = {
    "size": lambda b: (-b.size, b.start),
    "size-lifetime": lambda b: (-b.size, -(b.end - b.start), b.start),
    "lifetime": lambda b: (-(b.end - b.start), -b.size),
    "area": lambda b: (-b.size * (b.end - b.start + 1), b.start),
    "start": lambda b: (b.start, -b.size),
}


def _place(buffers: list[Buffer], order, best_fit: bool) -> tuple[list[int], int]:
    """Offsets (in ``buffers``' order) from greedy placement in ``order``; the arena size."""
    n = len(buffers)
    start = np.fromiter((b.start for b in buffers), np.int64, n)
    end = np.fromiter((b.end for b in buffers), np.int64, n)
    size = np.fromiter((b.size for b in buffers), np.int64, n)
    offset = np.full(n, -1, np.int64)
    for i in sorted(range(n), key=lambda i: order(buffers[i])):
        hit = (offset >= 0) & (start <= end[i]) & (end >= start[i])
        lo = offset[hit]
        if not lo.size:
            offset[i] = 0
            continue
        by = np.argsort(lo, kind="stable")
        lo = lo[by]
        top = np.maximum.accumulate(lo + size[hit][by])
        below = np.concatenate(([0], top[:-1]))
        gaps = lo - below
        fits = np.flatnonzero(gaps >= size[i])
        if not fits.size:
            offset[i] = top[-1]
        elif best_fit:
            offset[i] = below[fits[np.argmin(gaps[fits])]]
        else:
            offset[i] = below[fits[0]]
    arena = int((offset + size).max()) if n else 0
    return offset.tolist(), arena


def plan_memory(steps: list[Step], sizes: dict, keys: dict, outputs, *, alignment: int = 64,
                in_place: bool = True) -> MemoryPlan:
    """Plan the values in ``sizes`` (value -> bytes) written by ``out`` steps.

    ``keys[v]`` (e.g. shape and dtype) must match for an output to reuse an input's buffer;
    ``outputs`` are the graph's results (never planned). Sizes are rounded up to
    ``alignment``, so every offset is aligned.
    """
    live = analyse(steps, outputs)
    sizes = {v: _aligned(n, alignment) for v, n in sizes.items() if n > 0}
    plan = MemoryPlan(liveness=live)
    plan.buffers = _buffers(steps, sizes, keys, live, in_place, plan.in_place)
    plan.lower_bound = lower_bound(plan.buffers, len(steps))
    offsets, plan.arena_bytes, plan.strategy = pack(plan.buffers, plan.lower_bound)
    for b, off in zip(plan.buffers, offsets):
        b.offset = off
        for v in b.values:
            plan.offsets[v] = off
    return plan


def pack(buffers: list[Buffer], bound: int = 0) -> tuple[list[int], int, str]:
    """``(offsets, bytes, strategy)``: the smallest of the greedy placements of
    ``buffers`` (their sizes aligned) -- every order, best and first fit -- so that buffers
    alive at once never overlap; stops at one of ``bound`` bytes (a lower bound)."""
    best = None
    for name, order in _ORDERS.items():
        for best_fit in (True, False):
            offsets, arena = _place(buffers, order, best_fit)
            if best is None or arena < best[1]:
                best = (offsets, arena, f"{name}/{'best' if best_fit else 'first'}-fit")
            if arena <= bound:
                return best
    return best
