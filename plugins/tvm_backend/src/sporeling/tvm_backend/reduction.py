"""A ``fused_reduce`` (a sum or mean of a fused elementwise chain over some axes, see
:mod:`.fused_reduce`) as a TensorIR function: one loop nest over the reduced value's
indices in its memory order, the chain computed at each index and added into the result,
never stored.

The loops run in the input's axis order whatever is reduced, so a batch norm's statistics
over ``(N, H, W)`` of a channel-blocked ``(N, C/16, H, W, 16)`` array read memory in order
with the 16 channels innermost (the fusion pass takes only reductions that keep the
innermost axis, unless the value is :data:`SMALL` or that axis :data:`SHORT`: a reduction
along a long one is a serial chain of additions, NumPy's pairwise sum does better). Float32 and float16 values accumulate in
float64 and round once: a float32 accumulator over a channel's 32,768 elements ended 4x
further from the float64 sum; the wide one costs 20-50 % more time on these memory-bound
loops. A mean divides in float64.
"""
from __future__ import annotations

import math

import numpy as np

from .elementwise import GENERIC, _ops, _values, arguments, resolved, unsupported
from .target import tvm

__all__ = ["reduce_prim_func", "emit_reduce", "schedule_reduce", "reduce_unsupported", "scratch",
           "value_shape", "SMALL", "SHORT"]

SMALL = 4096
"""Values of at most this many elements are reduced along any axis: the serial additions
cost less than the kernel call the fusion saves (a loss summed over a few floats)."""


SHORT = 16
"""An innermost axis of at most this many elements is reduced whatever the value's size:
each row's few additions are a short chain, and the rows' chains overlap (the lanes of a
reduction split into lanes, see ``reduce_pass._in_lanes``)."""


def value_shape(expr: tuple, in_specs: tuple) -> tuple:
    """The shape of the value reduced: the chain's result, or the first input's."""
    return tuple(expr[-1][3]) if expr else tuple(in_specs[0][0])


def reduce_unsupported(expr: tuple, in_specs: tuple, axis: tuple) -> str | None:
    """Why :func:`reduce_prim_func` would not generate this reduction (None: it would)."""
    shape = value_shape(expr, in_specs)
    if not shape or 0 in shape:
        return "an empty or 0-d value"
    if len(shape) - 1 in axis and math.prod(shape) > SMALL and shape[-1] > SHORT:
        return "a reduction along the innermost axis"
    if expr:
        return unsupported(expr, in_specs)
    if np.dtype(in_specs[0][1]).kind != "f":
        return f"dtype {np.dtype(in_specs[0][1]).name}"
    return None


def _layout(expr: tuple, in_specs: tuple, axis: tuple) -> tuple:
    """``(full, dtype, wide, kept, out_shape, first, split, part_axes, part_shape)``."""
    full = value_shape(expr, in_specs)
    dtype = str(np.dtype(expr[-1][4] if expr else in_specs[0][1]))
    wide = "float64" if np.dtype(dtype).itemsize < 8 else dtype
    kept = [i for i in range(len(full)) if i not in axis]
    out_shape = tuple(full[i] for i in kept) or (1,)
    # two levels: each index of the outermost reduced axis sums the rest in the value's own
    # dtype (accumulators in vector registers), then those partial sums are added in
    # float64; one reduced axis: float64 directly
    first = min(axis)
    split = len(axis) > 1
    part_axes = sorted([first] + kept if split else kept)  # the partial sums' index
    part_shape = tuple(full[k] for k in part_axes) or (1,)
    return full, dtype, wide, kept, out_shape, first, split, part_axes, part_shape


def scratch(expr: tuple, in_specs: tuple, axis: tuple) -> tuple:
    """``((shape, dtype), (shape, dtype))`` of the two accumulators a reduction's function
    takes after its output: the partial sums and the float64 totals. The caller allocates
    them -- a function allocating its own (TVM's workspace) crashed once loaded from the disk
    cache through TVM's FFI alone, whose workspace allocator is the compiler runtime's."""
    _, dtype, wide, _, out_shape, _, split, _, part_shape = _layout(expr, in_specs, axis)
    return (part_shape, dtype if split else wide), (out_shape, wide)


def reduce_prim_func(expr: tuple, in_specs: tuple, axis: tuple, reduce: str):
    """The scheduled TensorIR module writing ``reduce`` (``"sum"``/``"mean"``) over ``axis``
    of the chain ``expr`` on inputs ``in_specs`` into an output of the kept axes (shape
    ``(1,)`` when none is kept), with the two accumulators of :func:`scratch` as its last
    arguments."""
    why = reduce_unsupported(expr, in_specs, axis)
    if why is not None:
        from .elementwise import Unsupported
        raise Unsupported(why)
    t = tvm()
    _, dtype, _, _, out_shape, *_ = _layout(expr, in_specs, axis)
    from tvm.script.ir_builder import IRBuilder
    from tvm.script.ir_builder import tirx as T

    with IRBuilder() as builder:
        with T.prim_func(s_tir=True):
            (part_shape, part_dtype), (acc_shape, acc_dtype) = scratch(expr, in_specs, axis)
            *inputs, out, part, totals = arguments(
                T, in_specs, out_shape, dtype,
                extra=[("part", part_shape, part_dtype), ("acc", acc_shape, acc_dtype)])
            emit_reduce(T, expr, in_specs, axis, reduce, inputs, out, part, totals)
    sch = t.s_tir.Schedule(builder.get())
    schedule_reduce(sch, expr, in_specs, axis)
    return sch.mod


def emit_reduce(T, expr, in_specs, axis, reduce, inputs, out, part, totals,
                prefix: str = "", extent=None) -> None:
    """Inside ``T.prim_func()``: the loops of the reduction into ``out`` through the
    accumulators ``part`` and ``totals`` (:func:`scratch`'s), sblocks ``prefix`` + part,
    acc, out (``extent``: the TIR variable a :data:`~.elementwise.GENERIC` extent stands
    for)."""
    tir = tvm().tirx
    ops = _ops()
    full, dtype, wide, kept, out_shape, first, split, part_axes, part_shape = \
        _layout(expr, in_specs, axis)
    # what a mean divides by: the reduced extents, a generic one the function's variable
    count = tir.const(math.prod(1 if full[k] == GENERIC else full[k] for k in axis), wide)
    if any(full[k] == GENERIC for k in axis):
        count = tir.Cast(wide, extent) * count
    full, part_shape, out_shape = (resolved(s, extent) for s in (full, part_shape, out_shape))
    last = len(expr) - 1
    narrow = dtype if split else wide
    with T.grid(*full) as loops:
        loops = list(loops) if len(full) > 1 else [loops]
        with T.sblock(prefix + "part"):
            index = [T.axis.reduce(n, i) if k in axis and (k != first or not split)
                     else T.axis.spatial(n, i)
                     for k, (n, i) in enumerate(zip(full, loops))]
            at = [index[k] for k in part_axes] or [0]
            with T.init():
                T.buffer_store(part, tir.const(0, narrow), at)
            value = _values(expr, in_specs, inputs, index, ops, tir, {}, {last})[last] \
                if expr else inputs[0][tuple(index)]
            T.buffer_store(part, part[tuple(at)] + tir.Cast(narrow, value), at)
    if split:
        acc = totals
        with T.grid(*part_shape) as loops:
            loops = list(loops) if len(part_shape) > 1 else [loops]
            with T.sblock(prefix + "acc"):
                index = [T.axis.reduce(n, i) if k == first else T.axis.spatial(n, i)
                         for k, n, i in zip(part_axes, part_shape, loops)]
                at = [v for k, v in zip(part_axes, index) if k != first] or [0]
                with T.init():
                    T.buffer_store(acc, tir.const(0, wide), at)
                T.buffer_store(acc, acc[tuple(at)] + tir.Cast(wide, part[tuple(index)]), at)
    else:
        acc = part
    with T.grid(*out_shape) as loops:
        loops = list(loops) if len(out_shape) > 1 else [loops]
        with T.sblock(prefix + "out"):
            at = [T.axis.spatial(n, i) for n, i in zip(out_shape, loops)]
            total = acc[tuple(at)]
            if reduce == "mean":
                total = total / count
            T.buffer_store(out, tir.Cast(dtype, total), at)


def schedule_reduce(sch, expr, in_specs, axis, prefix: str = "") -> None:
    """Each initialisation of :func:`emit_reduce`'s loops before its block's outermost
    reduced loop, not tested inside it."""
    *_, first, split, part_axes, _ = _layout(expr, in_specs, axis)
    rest = [k for k in axis if k != first]
    block = sch.get_sblock(prefix + "part")
    sch.decompose_reduction(block, sch.get_loops(block)[min(rest) if split else first])
    if split:
        block = sch.get_sblock(prefix + "acc")
        sch.decompose_reduction(block, sch.get_loops(block)[part_axes.index(first)])
