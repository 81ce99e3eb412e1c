"""Lowering control flow: ``cond``, ``while_loop`` and ``scan`` become one instruction each,
whose kernel is a closure running lowered sub-programs (the runtime never sees a graph).

The parameters follow :mod:`sporeling.compiler.ops.control`; each kernel mirrors that
primitive's eager ``impl`` step for step, calling the same kernels, so results are equal.

    >>> import numpy as np
    >>> from sporeling.compiler.ops import mul
    >>> from sporeling.compiler.ops.control import fori_loop
    >>> from sporeling.compiler.ir import make_graph
    >>> from sporeling.compiler.lowering import lower
    >>> g = make_graph(lambda n: fori_loop(0, 5, lambda i, v: mul(v, 2.0), n), np.float32(1))
    >>> lowered = lower(g)
    >>> lowered(np.float32(1)), len(lowered.sub_programs)
    ([array(32., dtype=float32)], 1)
"""
from __future__ import annotations

import numpy as np

from ..ir import Const
from .lower import register_lowering

__all__: list = []


def _sub(lower_sub, graph):
    """A runner of ``graph``'s sub-program; constant outputs are copied (they are shared by
    every call, and a caller may own what a loop body returns)."""
    run = lower_sub(graph)
    consts = [i for i, v in enumerate(graph.outputs) if isinstance(v, Const)]
    if not consts:
        return run

    def run_copying(*args):
        out = run(*args)
        for i in consts:
            out[i] = np.array(out[i])
        return out
    return run_copying


@register_lowering("cond")
def _cond(eq, lower_sub):
    true_run = _sub(lower_sub, eq.params["true_graph"])
    false_run = _sub(lower_sub, eq.params["false_graph"])

    def cond_kernel(backend, pred, *args, out=None):
        return tuple((true_run if bool(pred) else false_run)(*args))
    return cond_kernel


@register_lowering("while_loop")
def _while(eq, lower_sub):
    cond_graph, body_graph = eq.params["cond_graph"], eq.params["body_graph"]
    cond_run, body_run = lower_sub(cond_graph), _sub(lower_sub, body_graph)
    n, nc = len(body_graph.outputs), len(cond_graph.inputs)

    def while_kernel(backend, *args, out=None):
        carry, cond_consts, body_consts = list(args[:n]), args[n:nc], args[nc:]
        while bool(cond_run(*carry, *cond_consts)[0]):
            carry = body_run(*carry, *body_consts)
        return tuple(carry)
    return while_kernel


@register_lowering("scan")
def _scan(eq, lower_sub):
    body_graph = eq.params["body_graph"]
    n_carry, n_xs, length = eq.params["n_carry"], eq.params["n_xs"], eq.params["length"]
    order = range(length - 1, -1, -1) if eq.params["reverse"] else range(length)
    y_avals = body_graph.out_avals[n_carry:]
    body_run = _sub(lower_sub, body_graph)

    def scan_kernel(backend, *args, out=None):
        carry = list(args[:n_carry])
        xs, consts = args[n_carry:n_carry + n_xs], list(args[n_carry + n_xs:])
        ys: list = [None] * length
        for i in order:
            step = body_run(*carry, *(x[i] for x in xs), *consts)
            carry, ys[i] = step[:n_carry], step[n_carry:]
        stacked = [np.stack([y[j] for y in ys]) if length else
                   np.empty((0,) + tuple(aval.shape), aval.dtype)
                   for j, aval in enumerate(y_avals)]
        return tuple(carry) + tuple(stacked)
    return scan_kernel
