"""Redistribution: moving a tensor from one layout to another with the fewest bytes.

The plan works device axis by device axis (each axis pairs ranks differing in one bit):

* ``split`` -- an axis starts splitting a dimension: each rank keeps its half, no traffic;
* ``all_gather`` -- an axis stops splitting a dimension (its innermost splitter): the pair
  swap halves and concatenate;
* ``all_to_all`` -- an axis moves from splitting one dimension to another: each rank sends
  half its block;
* ``reduce_scatter`` / ``all_reduce`` -- a partial result is summed: into halves of a
  dimension the target splits by that axis (half the bytes), else whole.

Axes the source and target agree on (the common outer splitters of each dimension) never
move data; a partial sum the target will split is reduce-scattered rather than all-reduced;
a dimension changing its splitting axis moves by all-to-all, never by gather-then-split.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .layout import Layout, rank_bit

__all__ = ["Step", "plan", "plan_bytes", "apply_plan", "PairGroups"]


@dataclass(frozen=True)
class Step:
    kind: str            # split, all_gather, all_to_all, reduce_scatter, all_reduce
    axis: int
    dim: int = -1        # the dimension split/gathered/scattered (all_to_all: the new one)
    src_dim: int = -1    # all_to_all: the dimension that stops being split by ``axis``
    op: str = "sum"      # all_reduce: the reduction
    bytes: int = 0       # sent per rank


def _prefix(a, b) -> int:
    n = 0
    while n < len(a) and n < len(b) and a[n] == b[n]:
        n += 1
    return n


def plan(src: Layout, dst: Layout, shape, itemsize: int) -> list[Step]:
    """The steps turning ``src`` into ``dst`` (``dst`` must not be partial)."""
    cur = [list(ax) for ax in src.dims]
    want = [tuple(ax) for ax in dst.dims]
    block = src.local_size(shape) * itemsize
    steps: list[Step] = []

    def ready(d, axis):  # can ``axis`` be appended to dim ``d`` now, as ``want`` orders it?
        n = len(cur[d])
        return tuple(cur[d]) == want[d][:n] and n < len(want[d]) and want[d][n] == axis

    def target_dim(axis):
        for d, ax in enumerate(want):
            if axis in ax:
                return d
        return -1

    for axis, op in src.partial:
        d = target_dim(axis)
        if op == "sum" and d >= 0 and ready(d, axis):
            steps.append(Step("reduce_scatter", axis, d, bytes=block // 2))
            cur[d].append(axis)
            block //= 2
        else:
            steps.append(Step("all_reduce", axis, op=op, bytes=block))
    while True:
        moved = False
        for d in range(len(cur)):  # undo splits the target does not keep, innermost first
            if len(cur[d]) > _prefix(cur[d], want[d]):
                axis = cur[d].pop()
                d2 = target_dim(axis)
                if d2 >= 0 and d2 != d and ready(d2, axis):
                    steps.append(Step("all_to_all", axis, d2, d, bytes=block // 2))
                    cur[d2].append(axis)
                else:
                    steps.append(Step("all_gather", axis, d, bytes=block))
                    block *= 2
                moved = True
                break
        if moved:
            continue
        for d in range(len(cur)):
            while len(cur[d]) < len(want[d]):
                axis = want[d][len(cur[d])]
                held = [e for e in range(len(cur)) if axis in cur[e]]
                if held:  # the axis splits another dimension's kept prefix: free it first
                    e = held[0]
                    while axis in cur[e]:
                        gone = cur[e].pop()
                        steps.append(Step("all_gather", gone, e, bytes=block))
                        block *= 2
                    moved = True
                    break
                steps.append(Step("split", axis, d))
                cur[d].append(axis)
                block //= 2
            if moved:
                break
        if not moved:
            return steps


def plan_bytes(src: Layout, dst: Layout, shape, itemsize: int) -> int:
    return sum(s.bytes for s in plan(src, dst, shape, itemsize))


class PairGroups:
    """The two-rank groups of each device axis for one rank (made once, reused)."""

    def __init__(self, comm, n_axes: int):
        self.comm, self.n_axes, self._groups = comm, n_axes, {}

    def bit(self, axis: int) -> int:
        return rank_bit(self.comm.rank, axis, self.n_axes)

    def __call__(self, axis: int):
        group = self._groups.get(axis)
        if group is None:
            mask = 1 << (self.n_axes - 1 - axis)
            lo = self.comm.rank & ~mask
            name = f"sporeling.op.axis{axis}.{lo}"
            group = self.comm.groups.get(name) or self.comm.create_group(name, [lo, lo | mask])
            self._groups[axis] = group
        return group


def _half(x: np.ndarray, dim: int, which: int) -> np.ndarray:
    n = x.shape[dim] // 2
    index = [slice(None)] * x.ndim
    index[dim] = slice(which * n, (which + 1) * n)
    return x[tuple(index)]


def apply_plan(steps: list[Step], x: np.ndarray, groups: PairGroups) -> np.ndarray:
    """Run ``steps`` on this rank's block ``x`` (every rank of the world calls it)."""
    x = np.asarray(x)
    for s in steps:
        if s.kind == "split":
            x = _half(x, s.dim, groups.bit(s.axis))
        elif s.kind == "all_gather":
            x = groups(s.axis).all_gather(x, axis=s.dim)
        elif s.kind == "all_to_all":
            x = groups(s.axis).all_to_all(x, split_axis=s.dim, concat_axis=s.src_dim)
        elif s.kind == "reduce_scatter":
            x = groups(s.axis).reduce_scatter(x, "sum", axis=s.dim)
        elif s.kind == "all_reduce":
            x = groups(s.axis).all_reduce(x, s.op)
        else:  # pragma: no cover - the planner makes only the kinds above
            raise AssertionError(s.kind)
    return np.ascontiguousarray(x)
