"""Rewriting graphs equation by equation, and passes made of rewrite tables.

A rewrite rule looks at one equation (its operands already substituted) and returns
``None`` to keep it, or the value (a Var or Const) that replaces its output -- building new
equations with :meth:`Rewriter.bind` if it needs them. A rewrite table maps primitive names
to rules; :func:`rewrite_pass` makes a :class:`~.base.Pass` of one.

    >>> import numpy as np
    >>> from sporeling.compiler import ops
    >>> from sporeling.compiler.ir import make_graph
    >>> g = make_graph(lambda x: ops.neg(ops.neg(x)), np.ones(3, np.float32))
    >>> drop = rewrite_pass("neg-neg", {"neg": lambda eq, rw: (
    ...     rw.producer(eq.inputs[0]).inputs[0]
    ...     if rw.producer(eq.inputs[0]) and rw.producer(eq.inputs[0]).prim.name == "neg"
    ...     else None)})
    >>> drop.run(g, PassContext()).outputs == g.inputs
    True
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ..core import Aval
from ..core.primitive import Primitive, primitives
from ..ir import Const, Equation, Graph, IRError, Var
from .base import Pass, PassContext

__all__ = ["Rewriter", "rewrite", "rewrite_pass", "map_subgraphs", "same_aval"]

Rule = Callable[[Equation, "Rewriter"], Any]


def same_aval(a, b) -> bool:
    """Equal shapes and dtypes."""
    return tuple(a.shape) == tuple(b.shape) and np.dtype(a.dtype) == np.dtype(b.dtype)


class Rewriter:
    """A new equation list being built from ``graph``'s: substitutions, producers, changes."""

    def __init__(self, graph: Graph, ctx: PassContext | None = None):
        self.graph = graph
        self.ctx = ctx if ctx is not None else PassContext()
        self.env: dict[Var, Var | Const] = {}
        self.equations: list[Equation] = []
        self.producers: dict[Var, Equation] = {}
        self.changed = False
        self.source: str | None = None  # given to equations that bind() creates

    def read(self, v):
        """``v`` after the substitutions made so far."""
        return v if isinstance(v, Const) else self.env.get(v, v)

    def producer(self, v) -> Equation | None:
        """The equation of the new graph that defines ``v`` (None for inputs and Consts)."""
        return self.producers.get(v) if isinstance(v, Var) else None

    def emit(self, eq: Equation) -> None:
        """Append ``eq`` as it is."""
        self.equations.append(eq)
        for v in eq.outputs:
            self.producers[v] = eq

    def bind(self, prim: Primitive | str, *inputs, **params):
        """Append ``prim(*inputs, **params)`` (avals from its abstract rule); its output Var
        (a tuple of them for multi-result primitives)."""
        prim = primitives()[prim] if isinstance(prim, str) else prim
        inputs = [v if isinstance(v, (Var, Const)) else Const(v) for v in inputs]
        out = prim.abstract(*(v.aval for v in inputs), **params)
        avals = out if prim.multiple_results else (out,)
        outs = [Var(Aval(tuple(a.shape), np.dtype(a.dtype))) for a in avals]
        self.emit(Equation(prim, inputs, outs, dict(params), self.source))
        self.changed = True
        return tuple(outs) if prim.multiple_results else outs[0]

    def replace(self, old: Var, new) -> None:
        """From now on, uses of ``old`` read ``new`` (same shape and dtype)."""
        if not same_aval(old.aval, new.aval):
            raise IRError("a rewrite changed a value's type", where=self.graph.name,
                          expected=str(old.aval), got=str(new.aval))
        self.env[old] = new
        self.changed = True

    def substituted(self, eq: Equation, params: dict | None = None) -> Equation:
        """``eq`` with its operands read through the substitutions (itself if none apply)."""
        inputs = [self.read(v) for v in eq.inputs]
        params = eq.params if params is None else params
        if params is eq.params and all(a is b for a, b in zip(inputs, eq.inputs)):
            return eq
        return Equation(eq.prim, inputs, eq.outputs, params, eq.source)

    def finish(self) -> Graph:
        """The new graph, or the old one when nothing changed."""
        if not self.changed:
            return self.graph
        g = self.graph
        return Graph(list(g.inputs), self.equations, [self.read(v) for v in g.outputs],
                     g.name, dict(g.meta))


def map_subgraphs(params: dict, fn: Callable[[Graph], Graph]) -> dict:
    """``params`` with every Graph value (control-flow bodies) replaced by ``fn(graph)``;
    the same dict when none changed."""
    new = None
    for k, v in params.items():
        if isinstance(v, Graph):
            w = fn(v)
            if w is not v:
                new = dict(params) if new is None else new
                new[k] = w
    return params if new is None else new


def rewrite(graph: Graph, rule: Rule, ctx: PassContext | None = None, *,
            recurse: bool = True) -> Graph:
    """Apply ``rule`` to each equation in order (and inside sub-graphs when ``recurse``)."""
    rw = Rewriter(graph, ctx)
    for eq in graph.equations:
        params = map_subgraphs(eq.params, lambda g: rewrite(g, rule, rw.ctx)) \
            if recurse and eq.params else eq.params
        new_eq = rw.substituted(eq, params)
        if new_eq is not eq:
            rw.changed = True
        rw.source = eq.source
        result = rule(new_eq, rw)
        if result is None:
            rw.emit(new_eq)
        elif eq.prim.multiple_results:
            for old, value in zip(eq.outputs, result):
                rw.replace(old, value)
        else:
            rw.replace(eq.outputs[0], result)
    return rw.finish()


def rewrite_pass(name: str, table: dict[str, Rule], *, stage: str = "simplify",
                 order: int = 100, min_level: str = "O1", doc: str = "") -> Pass:
    """A pass applying ``table[eq.prim.name](eq, rewriter)`` to every equation it names."""
    table = dict(table)

    def rule(eq: Equation, rw: Rewriter):
        fn = table.get(eq.prim.name)
        return None if fn is None else fn(eq, rw)

    return Pass(name, lambda graph, ctx: rewrite(graph, rule, ctx), stage=stage,
                min_level=min_level, order=order, doc=doc)
