"""The IR: a functional SSA graph.

A :class:`Graph` has input :class:`Var`\\ s, a list of :class:`Equation`\\ s (a primitive applied
to Vars and :class:`Const`\\ s, defining new Vars) and outputs. Control-flow primitives hold
sub-graphs in their parameters. Every Var is defined once; nothing is mutated -- side effects
(a BatchNorm updating its running statistics) are extra outputs that the caller applies.

    >>> import numpy as np
    >>> from sporeling.compiler import ops
    >>> from sporeling.compiler.ir import make_graph
    >>> g = make_graph(lambda x, y: ops.add(ops.mul(x, 2.0), y), np.ones(3), np.ones(3))
    >>> print(g)  # doctest: +ELLIPSIS
    graph <lambda>(%0: float64[3], %1: float64[3]) {
      %2: float64[3] = mul(%0, 2.0)  ...
      %3: float64[3] = add(%2, %1)  ...
      return %3
    }
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core import Aval
from ..core.primitive import Primitive

__all__ = ["Var", "Const", "Equation", "Graph"]

_ids = itertools.count()


class Var:
    """A value defined once: by a graph input or by an equation's output."""
    __slots__ = ("aval", "id")

    def __init__(self, aval: Aval):
        self.aval = aval
        self.id = next(_ids)

    def __repr__(self) -> str:
        return f"Var#{self.id}:{self.aval}"


class Const:
    """A constant operand (a NumPy array baked into the graph)."""
    __slots__ = ("value", "aval")

    def __init__(self, value):
        self.value = np.asarray(value)
        self.aval = Aval(tuple(self.value.shape), self.value.dtype)

    def __repr__(self) -> str:
        return f"Const({self.value!r})"


@dataclass(eq=False)
class Equation:
    """``outputs = prim(*inputs, **params)``; ``source`` is the user's ``file:line``."""
    prim: Primitive
    inputs: list
    outputs: list
    params: dict[str, Any]
    source: str | None = None


@dataclass(eq=False)
class Graph:
    """A function as data: inputs, equations in execution order, outputs."""
    inputs: list[Var]
    equations: list[Equation]
    outputs: list
    name: str = "graph"
    meta: dict[str, Any] = field(default_factory=dict)  # e.g. how outputs nest (pytree)

    @property
    def in_avals(self) -> list[Aval]:
        return [v.aval for v in self.inputs]

    @property
    def out_avals(self) -> list[Aval]:
        return [v.aval for v in self.outputs]

    def use_counts(self) -> dict[Var, int]:
        """How many times each Var is read; a graph output counts twice, so a pass that
        absorbs single-use values never absorbs one that must be materialised."""
        uses: dict[Var, int] = {}
        for eq in self.equations:
            for v in eq.inputs:
                if isinstance(v, Var):
                    uses[v] = uses.get(v, 0) + 1
        for v in self.outputs:
            if isinstance(v, Var):
                uses[v] = uses.get(v, 0) + 2
        return uses

    def primitive_counts(self) -> dict[str, int]:
        """How many equations apply each primitive (sub-graphs not included)."""
        counts: dict[str, int] = {}
        for eq in self.equations:
            counts[eq.prim.name] = counts.get(eq.prim.name, 0) + 1
        return counts

    def __str__(self) -> str:
        from .printer import graph_to_text
        return graph_to_text(self)

    def __repr__(self) -> str:
        return (f"<Graph {self.name}: {len(self.inputs)} inputs, {len(self.equations)} "
                f"equations, {len(self.outputs)} outputs>")
