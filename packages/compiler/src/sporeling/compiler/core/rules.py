"""Rule tables of the transformations, keyed by primitive.

Each table is filled by small ``def_*`` helpers right next to a primitive's definition. A
primitive without a rule fails with an error naming the primitive and the transformation.

Backward rule: ``rule(ct, *inputs, out, **params) -> tuple`` with one cotangent per input
(``None`` where an input gets none), written with the functional ops so that it runs in
every mode (and differentiates again for grad of grad). ``ct`` is the output's cotangent (a
tuple for multi-result primitives; zeros stand in for outputs that got none). ``uses`` says
which operands the rule reads -- input indices and ``"out"``; the others reach the rule as
:class:`~sporeling.compiler.core.aval.Aval` (shape and dtype only), so eager autodiff can
release them early.

A rule whose cotangents are expensive may be ``selective=True``: it then also receives
``needs``, one bool per input saying whether anything wants that input's cotangent, and
returns ``None`` for the others (the input gradient of a network's first convolution is
never used, and is the most expensive part of its backward).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .primitive import MissingRuleError, Primitive

__all__ = ["BackwardRule", "def_backward", "backward_rule", "def_nondifferentiable",
           "ALL_OPERANDS"]

ALL_OPERANDS = None
"""``uses=ALL_OPERANDS`` (the default): the rule may read every input and the output."""


@dataclass(frozen=True)
class BackwardRule:
    fn: Callable
    uses: frozenset | None  # None: everything
    selective: bool = False  # takes needs=(bool per input)

    def needs_input(self, i: int) -> bool:
        return self.uses is None or i in self.uses

    @property
    def needs_output(self) -> bool:
        return self.uses is None or "out" in self.uses


def def_backward(prim: Primitive, uses=ALL_OPERANDS, selective: bool = False):
    """Decorator: ``fn`` becomes ``prim``'s backward rule (see the module doc)."""
    def put(fn: Callable) -> Callable:
        prim.backward = BackwardRule(fn, None if uses is None else frozenset(uses), selective)
        return fn
    return put


def def_nondifferentiable(*prims: Primitive) -> None:
    """Mark primitives whose outputs carry no gradient (comparisons, argmax, random...)."""
    for prim in prims:
        prim.differentiable = False


def backward_rule(prim: Primitive) -> BackwardRule:
    """``prim``'s backward rule, or an error naming the primitive and the transformation."""
    rule = prim.backward
    if rule is None:
        raise MissingRuleError(f"primitive {prim.name!r} has no backward rule", op="grad",
                               hint="define one with def_backward next to the primitive")
    return rule
