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
from functools import lru_cache

import numpy as np

from .layout import Layout, rank_bit

__all__ = ["Step", "plan", "plan_bytes", "plan_shape", "apply_plan", "PairGroups"]


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
    block = itemsize
    for n, ax in zip(shape, src.dims):
        block *= int(n) >> len(ax)
    return [Step(kind, axis, dim, src_dim, op, int(factor * block))
            for kind, axis, dim, src_dim, op, factor in _moves(src, dst)]


def _moves(src: Layout, dst: Layout) -> list[tuple]:
    """(kind, axis, dim, src_dim, op, bytes sent / bytes of the source block) per step."""
    cur = [list(ax) for ax in src.dims]
    want = dst.dims
    where = {a: d for d, ax in enumerate(want) for a in ax}
    block = 1.0
    moves: list[tuple] = []

    def ready(d, axis):  # can ``axis`` be appended to dim ``d`` now, as ``want`` orders it?
        c, w = cur[d], want[d]
        n = len(c)
        return n < len(w) and w[n] == axis and tuple(c) == w[:n]

    for axis, op in src.partial:
        d = where.get(axis, -1)
        if op == "sum" and d >= 0 and ready(d, axis):
            moves.append(("reduce_scatter", axis, d, -1, "sum", block / 2))
            cur[d].append(axis)
            block /= 2
        else:
            moves.append(("all_reduce", axis, -1, -1, op, block))
    changed = True
    while changed:  # undo splits the target does not keep, innermost first
        changed = False
        for d, c in enumerate(cur):
            while len(c) > _prefix(c, want[d]):
                axis = c.pop()
                d2 = where.get(axis, -1)
                if d2 >= 0 and d2 != d and ready(d2, axis):
                    moves.append(("all_to_all", axis, d2, d, "sum", block / 2))
                    cur[d2].append(axis)
                else:
                    moves.append(("all_gather", axis, d, -1, "sum", block))
                    block *= 2
                changed = True
    for d, c in enumerate(cur):  # every dimension now splits by a prefix of its target
        for axis in want[d][len(c):]:
            moves.append(("split", axis, d, -1, "sum", 0.0))
            c.append(axis)
            block /= 2
    return moves


def plan_bytes(src: Layout, dst: Layout, shape, itemsize: int) -> int:
    return sum(s.bytes for s in plan(src, dst, shape, itemsize))


@lru_cache(maxsize=1 << 18)
def plan_shape(src: Layout, dst: Layout) -> tuple[int, float]:
    """(collective steps, bytes sent per byte of the source block): the plan's shape does
    not depend on the tensor's, so costs of many tensors share one plan."""
    moves = _moves(src, dst)
    return sum(1 for m in moves if m[0] != "split"), sum(m[5] for m in moves)


class PairGroups:
    """The two-rank groups of each device axis for one rank (made once, reused)."""

    def __init__(self, comm, n_axes: int):
        self.comm, self.n_axes, self._groups = comm, n_axes, {}

    def bit(self, axis: int) -> int:
        return rank_bit(self.comm.rank, axis, self.n_axes)

    def name(self, axis: int) -> str:
        """The group's name (registered on this rank's world communicator)."""
        mask = 1 << (self.n_axes - 1 - axis)
        lo = self.comm.rank & ~mask
        name = f"sporeling.op.axis{axis}.{lo}"
        if name not in self.comm.groups:
            self.comm.create_group(name, [lo, lo | mask])
        return name

    def __call__(self, axis: int):
        group = self._groups.get(axis)
        if group is None:
            group = self._groups[axis] = self.comm.groups[self.name(axis)]
        return group


def _half(x, dim: int, which: int, differentiable: bool):
    n = x.shape[dim] // 2
    if differentiable:
        from sporeling.compiler import ops
        begin = [0] * len(x.shape)
        begin[dim] = which * n
        size = [-1] * len(x.shape)
        size[dim] = n
        return ops.slice(x, tuple(begin), tuple(size))
    index = [slice(None)] * x.ndim
    index[dim] = slice(which * n, (which + 1) * n)
    return x[tuple(index)]


def apply_plan(steps: list[Step], x, groups: PairGroups, *, differentiable: bool = False):
    """Run ``steps`` on this rank's block ``x`` (every rank of the world calls it).

    ``differentiable``: through the collective primitives and ``ops.slice``, so the
    redistribution is recorded by autodiff (all_gather's backward is reduce_scatter, ...)."""
    if differentiable:
        if steps and not len(x.shape):  # collectives keep at least one axis: lend it one
            from sporeling.compiler import ops
            return ops.reshape(_apply_primitives(steps, ops.reshape(x, (1,)), groups), ())
        return _apply_primitives(steps, x, groups)
    x = np.asarray(x)
    if steps and not x.ndim:
        return apply_plan(steps, x.reshape(1), groups).reshape(())
    for s in steps:
        if s.kind == "split":
            x = _half(x, s.dim, groups.bit(s.axis), False)
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


def _apply_primitives(steps, x, groups):
    from .. import primitives as P
    for s in steps:
        if s.kind == "split":
            x = _half(x, s.dim, groups.bit(s.axis), True)
        elif s.kind == "all_gather":
            x = P.all_gather(x, s.dim, groups.name(s.axis))
        elif s.kind == "all_to_all":
            x = P.all_to_all(x, s.dim, s.src_dim, groups.name(s.axis))
        elif s.kind == "reduce_scatter":
            x = P.reduce_scatter(x, "sum", s.dim, groups.name(s.axis))
        elif s.kind == "all_reduce":
            x = P.all_reduce(x, s.op, groups.name(s.axis))
        else:  # pragma: no cover - the planner makes only the kinds above
            raise AssertionError(s.kind)
    return x
