"""Graph mode's ``group_kernels`` pass on the TVM backend: each run of consecutive fused
chains and fused reductions becomes one ``fused_group`` equation (:mod:`.group`), one
generated function and one kernel call where Python called one per equation. A training
step's optimizer update is such a run -- the main job's Adam wrote four chains for each of
its ten parameters; grouped, the step calls two kernels for its update instead of 41.

It runs last among the fusion passes, in graphs lowered on this backend only (context key
``tvm_group_kernels``, default True). Equations are not reordered: a run ends at the first
equation of another kind. Taken: runs of two or more members that TVM generates and that
read each other's results in the shapes they were written in (see
:func:`~.group.layout`); a member that breaks a run starts the next one.
"""
from __future__ import annotations

from sporeling.compiler.ir import Equation, Graph
from sporeling.compiler.passes import Pass, PassContext
from sporeling.compiler.passes.rewrite import map_subgraphs

from .backend import enabled_by
from .group import KINDS, Member, fused_group_p, layout

__all__ = ["group_kernels", "GROUP_KERNELS"]


def _spec(v) -> tuple:
    return tuple(v.aval.shape), v.aval.dtype.str


def group_kernels(graph: Graph, ctx: PassContext) -> Graph:
    """``graph`` with its runs of fused chains and reductions grouped."""
    equations, run, changed = [], [], False

    def close():
        nonlocal changed
        while run:
            n, inputs, members = _longest(run)
            if n > 1:
                equations.append(Equation(fused_group_p, inputs,
                                          [eq.outputs[0] for eq in run[:n]],
                                          {"members": members}, run[0].source))
                ctx.count("group_kernels.grouped", n)
                changed = True
            else:
                equations.append(run[0])
            del run[:n]

    for eq in graph.equations:
        if eq.prim.name in KINDS:
            run.append(eq)
            continue
        close()
        params = map_subgraphs(eq.params, lambda g: group_kernels(g, ctx))
        if params is not eq.params:
            eq, changed = Equation(eq.prim, eq.inputs, eq.outputs, params, eq.source), True
        equations.append(eq)
    close()
    if not changed:
        return graph
    return Graph(list(graph.inputs), equations, list(graph.outputs), graph.name,
                 dict(graph.meta))


def _members(eqs: list) -> tuple[list, tuple]:
    """The group's inputs (each value once) and its :class:`Member` s."""
    inputs, index, result = [], {}, {}
    members = []
    for m, eq in enumerate(eqs):
        refs = []
        for v in eq.inputs:
            if v in result:
                refs.append(-1 - result[v])
                continue
            key = id(v)  # a Var or a Const, each value once
            if key not in index:
                index[key] = len(inputs)
                inputs.append(v)
            refs.append(index[key])
        result[eq.outputs[0]] = m
        members.append(Member(eq.prim.name, tuple(refs), tuple(sorted(eq.params.items()))))
    return inputs, tuple(members)


def _longest(run: list) -> tuple[int, list, tuple]:
    """``(n, inputs, members)`` of the longest prefix of ``run`` that is one generated
    function (``n`` is 1 where none of two or more is)."""
    def group(n):
        inputs, members = _members(run[:n])
        fits = not isinstance(layout(members, [_spec(v) for v in inputs]), str)
        return fits, inputs, members
    fits, inputs, members = group(len(run))
    if fits:  # the common case: the whole run
        return len(run), inputs, members
    n, found = 1, (1, None, None)
    while n < len(run):
        fits, inputs, members = group(n + 1)
        if not fits:
            break
        n, found = n + 1, (n + 1, inputs, members)
    return found


GROUP_KERNELS = Pass("group_kernels", group_kernels, stage="fusion", order=70,
                     enabled=enabled_by("tvm_group_kernels"),
                     doc="runs of fused chains and reductions as one fused_group (TVM "
                         "backend)")
