"""A group's :class:`~.group.Layout` as one scheduled TensorIR function: its nests of chains
(:func:`~.elementwise.emit_nest`) and its reductions (:func:`~.reduction.emit_reduce`) in
order, each scheduled as it would be alone."""
from __future__ import annotations

import numpy as np

from .elementwise import GENERIC, NestValue, emit_nest, resolved, schedule_nest
from .entry import declare
from .group import Layout, on_stack
from .reduction import emit_reduce, schedule_reduce
from .target import tvm

__all__ = ["group_prim_func"]


def group_prim_func(plan: Layout):
    """The scheduled module of ``main(arg0, ..., argN)`` computing ``plan``."""
    t = tvm()
    from tvm.script.ir_builder import IRBuilder
    from tvm.script.ir_builder import tirx as T

    with IRBuilder() as builder:
        with T.prim_func(s_tir=True):
            T.func_name("main")
            # no argument overlaps another (a member reading an earlier result reads that
            # result's own buffer), but for a result written over the input only its own
            # loop reads, each element read before it is written (a Parameter's update,
            # as a lone chain's out= may be its operand's buffer)
            T.func_attr({"tirx.noalias": True})
            # a generic batch extent (group.generic_group): read from the arrays
            extent = T.int64() if any(GENERIC in shape for shape, _ in plan.args) else None
            # the arrays passed (entry.declare); a reduction's small accumulators are the
            # function's own (group.on_stack)
            own = [on_stack(source, shape, dtype)
                   for source, (shape, dtype) in zip(plan.sources, plan.args)]
            passed = iter(declare(
                [T.arg(f"a{i}", T.handle()) for i, mine in enumerate(own) if not mine],
                [(resolved(shape, extent), dtype)
                 for mine, (shape, dtype) in zip(own, plan.args) if not mine]))
            buffers = [T.alloc_buffer(shape, str(np.dtype(dtype))) if mine else next(passed)
                       for mine, (shape, dtype) in zip(own, plan.args)]
            views: dict = {}

            def operand(a, members=()):
                if isinstance(a, tuple):  # an argument in another (collapsed) shape
                    if a not in views:
                        source = buffers[a[0]]
                        views[a] = T.decl_buffer(resolved(a[1], extent), source.dtype,
                                                 data=source.data, align=4)
                    return views[a]
                return buffers[a] if a >= 0 else NestValue(_position(members, -1 - a))

            for k, nest in enumerate(plan.nests):
                if nest[0] == "chains":
                    _, shape, _, members = nest
                    emit_nest(T, [(expr, specs, [operand(a, members) for a in operands],
                                   operand(out))
                                  for _, expr, specs, operands, out in members],
                              shape, f"n{k}", extent)
                else:
                    _, _, expr, specs, axis, reduce, operands, out, part, acc = nest
                    emit_reduce(T, expr, specs, axis, reduce, [operand(a) for a in operands],
                                operand(out), buffers[part], buffers[acc], f"n{k}_", extent)
    sch = t.s_tir.Schedule(builder.get())
    for k, nest in enumerate(plan.nests):
        if nest[0] == "chains":
            _, shape, dtype, members = nest
            schedule_nest(sch, f"n{k}", shape, dtype,
                          [s for member in members for s, _ in member[2]],
                          reads_back=any(isinstance(a, int) and a < 0
                                         for member in members for a in member[3]))
        else:
            _, _, expr, specs, axis, *_ = nest
            schedule_reduce(sch, expr, specs, axis, f"n{k}_")
    return sch.mod


def _position(members, m: int) -> int:
    """Where member ``m`` (the group's numbering) is among its nest's ``members``."""
    return [member[0] for member in members].index(m)
