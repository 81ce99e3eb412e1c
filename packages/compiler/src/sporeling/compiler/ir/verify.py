"""Checks that a graph is well formed: every Var defined once before use, shapes and dtypes
consistent with each primitive's abstract rule."""
from __future__ import annotations

from sporeling.core import SporelingError

from .graph import Const, Graph, Var

__all__ = ["verify", "IRError"]


class IRError(SporelingError):
    """A malformed graph (a pass produced something invalid)."""


def _same(a, b) -> bool:
    return tuple(a.shape) == tuple(b.shape) and a.dtype == b.dtype


def verify(graph: Graph, *, check_types: bool = True) -> None:
    """Raise :class:`IRError` naming the equation and its source line if ``graph`` is bad."""
    defined = set(graph.inputs)
    if len(defined) != len(graph.inputs):
        raise IRError("an input Var appears twice", where=graph.name)
    for i, eq in enumerate(graph.equations):
        where = f"{graph.name}, equation {i} ({eq.prim.name})" + (
            f" from {eq.source}" if eq.source else "")
        for v in eq.inputs:
            if isinstance(v, Var) and v not in defined:
                raise IRError("operand used before it is defined", where=where, got=repr(v))
            if not isinstance(v, (Var, Const)):
                raise IRError("operand is neither a Var nor a Const", where=where,
                              got=type(v).__name__)
        for v in eq.outputs:
            if v in defined:
                raise IRError("Var defined twice", where=where, got=repr(v))
            defined.add(v)
        if check_types:
            expected = eq.prim.abstract(*(v.aval for v in eq.inputs), **eq.params)
            expected = expected if eq.prim.multiple_results else (expected,)
            if len(expected) != len(eq.outputs) or not all(
                    _same(e, v.aval) for e, v in zip(expected, eq.outputs)):
                raise IRError("outputs disagree with the primitive's abstract rule",
                              where=where, expected=list(expected),
                              got=[v.aval for v in eq.outputs])
    for v in graph.outputs:
        if isinstance(v, Var) and v not in defined:
            raise IRError("graph output is never defined", where=graph.name, got=repr(v))
