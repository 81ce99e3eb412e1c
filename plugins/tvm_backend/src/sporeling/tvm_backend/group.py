"""The ``fused_group`` primitive: consecutive fused chains and fused reductions of a program
run as one generated function, so Python calls one kernel where it called each (an
optimizer's update of every parameter: four chains a parameter for Adam).

``fused_group(*inputs; members)``: ``members`` are :class:`Member` s, run in order, one
result each; a member reads the group's inputs and the results of earlier members. Only
the ``group_kernels`` pass (:mod:`.group_pass`) writes it, after autodiff, in graphs lowered
on this backend: it has no backward rule. A backend without its kernel runs the members one
by one (its decomposition), which is also what the kernel does when TVM does not generate
the group.

:func:`layout` says how the generated function takes its arrays: one argument per input
(in the collapsed shape its readers index: see :func:`~.elementwise.collapsed`), one per
result, then each reduction's two accumulators (those under 1 KiB are the function's own,
on its stack: :func:`on_stack`). Chains of one output shape share one loop nest; a chain
reading an earlier result of its nest reads it at the same index where it was just stored
(see :func:`~.elementwise.emit_nest`). A group's function is generated for its :func:`generic_group`: its batch
extent is an argument, so one function serves every batch size.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from sporeling.compiler import Primitive, bind, primitives

from .elementwise import GENERIC, collapsed, unsupported, with_shapes
from .reduction import reduce_unsupported, scratch, value_shape

__all__ = ["fused_group_p", "Member", "Group", "Layout", "layout", "result_spec", "counts",
           "KINDS", "on_stack", "generic_group"]

KINDS = ("fused_elementwise", "fused_reduce")

fused_group_p = Primitive("fused_group", multiple_results=True, differentiable=False,
                          doc="consecutive fused chains and reductions as one generated "
                              "function (the TVM backend's group_kernels pass)")


@dataclass(frozen=True)
class Member:
    """One equation of a group: ``kind`` (one of :data:`KINDS`) with ``params`` (sorted
    ``(name, value)`` pairs) on ``refs``: ``k >= 0`` the group's input ``k``, ``-1 - m``
    the result of member ``m``."""
    kind: str
    refs: tuple
    params: tuple

    def __repr__(self) -> str:  # what the IR printer shows
        params = dict(self.params)
        chain = " -> ".join(node[0] for node in params["expr"]) or "identity"
        head = f"{params['reduce']}[{chain}]" if self.kind == "fused_reduce" else f"[{chain}]"
        return head + "(" + ", ".join(f"in{r}" if r >= 0 else f"m{-1 - r}"
                                      for r in self.refs) + ")"


@dataclass(frozen=True)
class Group:
    """A group's members on inputs of these ``(shape, dtype str)``: what keys its compiled
    function."""
    members: tuple
    specs: tuple

    def key(self) -> str:
        """Everything the generated code depends on, as text (the disk cache's key: a
        Member's repr is the IR printer's short form)."""
        return repr(("fused_group", tuple((m.kind, m.refs, m.params) for m in self.members),
                     self.specs))


def generic_group(group: Group) -> Group:
    """``group`` with its batch extent its function's argument (as
    :func:`~.elementwise.generic` does for a chain): the first extent of its first input of
    two or more axes that is not 1 (a broadcast row), where an input or a member's value of
    two or more axes has it first, becomes :data:`~.elementwise.GENERIC` -- one function
    for every batch size. Any call this key serves has that extent wherever it stands, so
    the function computes what the call's own would. As it is without such an input."""
    lead = next((shape[0] for shape, _ in group.specs if len(shape) >= 2 and shape[0] > 1),
                None)
    if lead is None:
        return group

    def free(shape):
        shape = tuple(shape)
        return (GENERIC,) + shape[1:] if len(shape) >= 2 and shape[0] == lead else shape

    def member(m: Member) -> Member:
        return Member(m.kind, m.refs, tuple((name, with_shapes(value, free) if name == "expr"
                                             else value) for name, value in m.params))
    return Group(tuple(map(member, group.members)),
                 tuple((free(shape), dtype) for shape, dtype in group.specs))


def result_spec(kind: str, params: dict, specs) -> tuple:
    """``(shape, dtype str)`` of a member's result from its operands' ``(shape, dtype)``."""
    expr = params["expr"]
    if kind == "fused_elementwise":
        return tuple(expr[-1][3]), np.dtype(expr[-1][4]).str
    full = value_shape(expr, specs)
    axis, keepdims = params["axis"], params["keepdims"]
    dtype = expr[-1][4] if expr else specs[0][1]
    return (tuple(1 if k in axis else n for k, n in enumerate(full)
                  if keepdims or k not in axis), np.dtype(dtype).str)


STACK_BYTES = 1024
"""TVM places an allocation of under this many bytes on the function's stack (its
``kMaxStackAlloca``); a larger one comes from TVM's workspace allocator, which a module
loaded from the disk cache through the FFI alone does not have (a null call)."""


def on_stack(source: tuple, shape: tuple, dtype: str) -> bool:
    """Whether an argument of :class:`Layout` is a small accumulator the generated
    function keeps on its stack (no argument: nothing to allocate and pass on every
    call), not one the kernel passes."""
    return source[0] == "scratch" and GENERIC not in shape and \
        math.prod(shape) * np.dtype(dtype).itemsize < STACK_BYTES


@dataclass(frozen=True)
class Layout:
    """How a group's function takes its arrays and what it computes.

    ``args``: ``(shape, dtype str)`` of each argument, an array's own shape (0-d ones
    too): the kernel passes its arrays as they are; ``sources``: where the kernel
    gets each -- ``("in", k)`` the group's input ``k``, ``("out", m)`` member ``m``'s
    result, ``("scratch", m, j)`` reduction ``m``'s accumulator ``j``; ``nests``: what to
    emit, in order -- ``("chains", shape, dtype, [(m, expr, specs, operands, out)])`` or
    ``("reduce", m, expr, specs, axis, reduce, operands, out, part, acc)``, where an
    operand or ``out`` is an argument index, ``(argument, shape)`` (the argument's memory
    in the collapsed shape a loop reads or writes) or, for an operand, ``-1 - p``: member
    ``p``'s value in the same nest."""
    args: tuple
    sources: tuple
    nests: tuple
    results: tuple  # (shape, dtype str) of each member's result, as the graph has it


def layout(members, in_specs) -> Layout | str:
    """The :class:`Layout` of ``members`` on inputs of these ``(shape, dtype)``, or why
    they cannot be one generated function (a member TVM does not generate). Computed once
    per group and specs: the pass, the kernel, the compile check and the code generator
    all ask."""
    return _layout(tuple(members), tuple((tuple(s), np.dtype(d).str) for s, d in in_specs))


@functools.lru_cache(maxsize=256)
def _layout(members: tuple, in_specs: tuple) -> Layout | str:
    args, sources, arg_of = [], [], {}
    results, written = [], []  # per member: graph spec; (argument, written shape, nest)
    nests: list = []

    def argument(source, shape, dtype):
        if source not in arg_of:
            arg_of[source] = len(args)
            args.append((tuple(shape), dtype))
            sources.append(source)
        return arg_of[source]

    def view(arg, shape):  # the argument's memory in the shape a loop reads or writes
        return arg if args[arg][0] == tuple(shape) else (arg, tuple(shape))

    for m, member in enumerate(members):
        params = dict(member.params)
        specs = tuple(in_specs[r] if r >= 0 else results[-1 - r] for r in member.refs)
        if member.kind == "fused_elementwise":
            expr, cspecs = collapsed(params["expr"], specs)
            why = unsupported(expr, cspecs)
            shapes = [tuple(s) or (1,) for s, _ in cspecs]
            out_shape = tuple(expr[-1][3]) or (1,)
        else:
            expr, cspecs, axis = params["expr"], specs, params["axis"]
            why = reduce_unsupported(expr, specs, axis)
            shapes = [tuple(s) or (1,) for s, _ in specs]
            full = value_shape(expr, specs)
            out_shape = tuple(n for k, n in enumerate(full) if k not in axis) or (1,)
        if why is not None:
            return f"member {m}: {why}"
        results.append(result_spec(member.kind, params, specs))
        chains = nests[-1] if nests and nests[-1][0] == "chains" else None
        if member.kind == "fused_elementwise":
            reads_nest = any(written[-1 - r][2] is chains for r in member.refs if r < 0)
            # a chain joins the open nest when it writes that shape, but where the nest is
            # one element: its values are computed before the loop, where no member's is
            if chains is None or chains[1] != out_shape or \
                    reads_nest and math.prod(out_shape) == 1:
                chains = ["chains", out_shape, results[-1][1], []]
                nests.append(chains)
            elif np.dtype(results[-1][1]).itemsize > np.dtype(chains[2]).itemsize:
                chains[2] = results[-1][1]  # vectorised for the widest
        operands = []
        for r, shape, (_, dtype) in zip(member.refs, shapes, specs):
            if r >= 0:
                operands.append(view(argument(("in", r), in_specs[r][0], dtype), shape))
                continue
            arg, shape_written, nest = written[-1 - r]
            if shape == shape_written and member.kind == "fused_elementwise" and \
                    nest is chains:
                operands.append(r)
            else:  # its memory, collapsed as this member reads it
                operands.append(view(arg, shape))
        arg = argument(("out", m), results[-1][0], results[-1][1])
        out = view(arg, out_shape)
        if member.kind == "fused_elementwise":
            chains[3].append((m, expr, cspecs, tuple(operands), out))
            written.append((arg, out_shape, chains))
        else:
            (part_shape, part_dtype), (acc_shape, acc_dtype) = scratch(expr, specs, axis)
            part = argument(("scratch", m, 0), part_shape, np.dtype(part_dtype).str)
            acc = argument(("scratch", m, 1), acc_shape, np.dtype(acc_dtype).str)
            nest = ("reduce", m, expr, specs, axis, params["reduce"], tuple(operands), out,
                    part, acc)
            nests.append(nest)
            written.append((arg, out_shape, nest))
    frozen = tuple(tuple(n[:3]) + (tuple(n[3]),) if n[0] == "chains" else n for n in nests)
    return Layout(tuple(args), tuple(sources), frozen, tuple(results))


@fused_group_p.def_abstract_eval
def _aval(*avals, members):
    results = []
    for member in members:
        operands = [avals[r] if r >= 0 else results[-1 - r] for r in member.refs]
        results.append(primitives()[member.kind].abstract(*operands, **dict(member.params)))
    return tuple(results)


@fused_group_p.def_decomposition
def _members(*inputs, members):
    results = []
    for member in members:
        operands = [inputs[r] if r >= 0 else results[-1 - r] for r in member.refs]
        results.append(bind(primitives()[member.kind], *operands, **dict(member.params)))
    return tuple(results)


def counts(graph) -> dict:
    """``graph.primitive_counts()`` with each group counted as its members."""
    found = dict(graph.primitive_counts())
    for eq in graph.equations:
        if eq.prim is fused_group_p:
            for member in eq.params["members"]:
                found[member.kind] = found.get(member.kind, 0) + 1
    found.pop("fused_group", None)
    return found
