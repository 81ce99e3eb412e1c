"""Decomposition: what a backend has no kernel for, written with what it has.

A backend implements the core set (the primitives declared ``core=True``, see
:mod:`sporeling.compiler.core.core_set`);
another primitive lowers on it all the same when its record has a decomposition
(``prim.def_decomposition(fn)``, ``fn(*inputs, **params)`` written with the functional
ops). :func:`decompose` traces ``fn`` on the equation's operand shapes and puts the
equations it binds in the equation's place, recursively (a decomposition may use other
decomposed primitives). An equation the backend has a kernel for -- or whose primitive has a
lowering rule or a Python ``impl`` -- stays as it is: a backend's own kernel always wins.

    >>> import numpy as np
    >>> from sporeling.compiler import ops
    >>> from sporeling.compiler.ir import make_graph
    >>> from sporeling.runtime import get_backend
    >>> class SumOnly:                       # a backend with kernels for sum and exp only
    ...     has_kernel = staticmethod(lambda name: name in ("sum", "exp"))
    >>> g = make_graph(lambda x: ops.sum(ops.sigmoid(x)), np.ones(3, np.float32))
    >>> [eq.prim.name for eq in decompose(g, SumOnly()).equations]   # doctest: +ELLIPSIS
    ['abs', 'neg', 'exp', ...'div', 'sum']
"""
from __future__ import annotations

import numpy as np

from sporeling.core import SporelingError

from ..ir import Equation, Graph, Var, make_graph

__all__ = ["decompose", "decomposes"]


def decomposes(prim, backend) -> bool:
    """Whether lowering for ``backend`` replaces ``prim``'s equations by its decomposition:
    it has one, and no lowering rule, no Python impl, no kernel on ``backend``."""
    return (prim.decomposition is not None and prim.lowering is None and prim.impl is None
            and not backend.has_kernel(prim.name))


def decompose(graph: Graph, backend) -> Graph:
    """``graph`` with every equation :func:`decomposes` says so replaced by the equations of
    its decomposition (``graph`` itself when there is none). The new equations keep the
    replaced one's source line, and its result Vars where they compute them."""
    if not any(decomposes(eq.prim, backend) for eq in graph.equations):
        return graph
    rename: dict = {}  # a result passed through unchanged -> the value standing for it
    equations: list[Equation] = []
    for eq in graph.equations:
        inputs = [rename.get(v, v) for v in eq.inputs]
        if not decomposes(eq.prim, backend):
            equations.append(eq if all(a is b for a, b in zip(inputs, eq.inputs)) else
                             Equation(eq.prim, inputs, eq.outputs, eq.params, eq.source))
            continue
        sub = decompose(_trace(eq, inputs), backend)
        env = dict(zip(sub.inputs, inputs))
        produced = {v for e in sub.equations for v in e.outputs}
        for got, var in zip(sub.outputs, eq.outputs):
            if isinstance(got, Var) and got in produced and got not in env:
                env[got] = var  # the equation computing it defines the original Var
            else:  # an operand or constant passed through, or a result returned twice
                rename[var] = env.get(got, got)
        for e in sub.equations:
            equations.append(Equation(e.prim, [env.get(v, v) for v in e.inputs],
                                      [env.get(v, v) for v in e.outputs], e.params,
                                      eq.source))
    return Graph(graph.inputs, equations, [rename.get(v, v) for v in graph.outputs],
                 graph.name, dict(graph.meta))


def _trace(eq: Equation, inputs: list) -> Graph:
    """The decomposition of ``eq``'s primitive traced on its operands' shapes, checked
    against the primitive's abstract rule."""
    prim, params = eq.prim, eq.params

    def body(*operands):
        out = prim.decomposition(*operands, **params)
        return list(out) if prim.multiple_results else [out]

    sub = make_graph(body, *(v.aval for v in inputs), name=f"{prim.name}_decomposition",
                     record_source=False, fresh_seeds=False)
    got = [(tuple(v.aval.shape), np.dtype(v.aval.dtype)) for v in sub.outputs]
    want = [(tuple(v.aval.shape), np.dtype(v.aval.dtype)) for v in eq.outputs]
    if got != want or sub.meta["captured"]:
        raise SporelingError(f"the decomposition of {prim.name!r} disagrees with its "
                             f"abstract rule", op=prim.name, where=eq.source,
                             expected=_describe(want), got=_describe(got) +
                             (" and values captured from outside it"
                              if sub.meta["captured"] else ""))
    return sub


def _describe(avals) -> str:
    return ", ".join(f"{dtype}{list(shape)}" for shape, dtype in avals)
