"""Lowering control flow: ``cond``, ``while_loop`` and ``scan`` become one instruction each,
whose kernel is a closure running lowered sub-programs (the runtime never sees a graph).

What each primitive does is written once, in :mod:`sporeling.compiler.ops.control`
(``run_cond``, ``run_while``, ``run_scan``); its eager ``impl`` passes runners that evaluate
the sub-graphs, these kernels pass the lowered sub-programs, so results are equal. Each is
the primitive's lowering rule, kept on its record (``prim.def_lowering``).

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
from ..ops.control import cond_p, run_cond, run_scan, run_while, scan_p, while_p

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


@cond_p.def_lowering
def _cond(eq, lower_sub):
    true_run = _sub(lower_sub, eq.params["true_graph"])
    false_run = _sub(lower_sub, eq.params["false_graph"])

    def cond_kernel(backend, pred, *args, out=None):
        return run_cond(pred, args, true_run, false_run)
    return cond_kernel


@while_p.def_lowering
def _while(eq, lower_sub):
    cond_graph, body_graph = eq.params["cond_graph"], eq.params["body_graph"]
    cond_run, body_run = lower_sub(cond_graph), _sub(lower_sub, body_graph)
    n, nc = len(body_graph.outputs), len(cond_graph.inputs)

    def while_kernel(backend, *args, out=None):
        return run_while(args, n, nc, cond_run, body_run)
    return while_kernel


@scan_p.def_lowering
def _scan(eq, lower_sub):
    p, body_graph = eq.params, eq.params["body_graph"]
    y_avals = body_graph.out_avals[p["n_carry"]:]
    body_run = _sub(lower_sub, body_graph)

    def scan_kernel(backend, *args, out=None):
        return run_scan(args, p["n_carry"], p["n_xs"], p["length"], p["reverse"], y_avals,
                        body_run)
    return scan_kernel
