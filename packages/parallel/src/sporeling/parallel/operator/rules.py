"""Sharding rules, as operator parallel reads them.

The rules themselves live with each primitive in the compiler
(:meth:`sporeling.compiler.Primitive.def_sharding_rule`, next to its other rules; an
``elementwise=True`` primitive needs none), as :class:`OpDims`: one *label* per dimension of
every operand and result, the labels that must stay whole (``fixed``), those whose split
leaves partial results (``reduce``), and an optional per-device ``local`` computation. See
:mod:`sporeling.compiler.core.sharding`. This package turns them into layouts, propagation
and redistribution. A primitive without a rule runs replicated.
"""
from __future__ import annotations

from typing import Callable

from sporeling.compiler import primitives
from sporeling.compiler.core import Primitive
from sporeling.compiler.core.sharding import OpDims, op_dims
from sporeling.core import SporelingError

__all__ = ["OpDims", "def_sharding_rule", "sharding_rule"]


def sharding_rule(eq) -> OpDims:
    """The OpDims of ``eq`` (all fixed -- replicated -- when its primitive has no rule)."""
    return op_dims(eq)


def def_sharding_rule(*prims: Primitive | str) -> Callable:
    """Decorator: ``rule(eq) -> OpDims | None`` becomes the sharding rule of ``prims``
    (primitives, or names of installed ones). A plugin defining its own primitive would
    rather write ``my_p.def_sharding_rule`` beside it."""
    def put(rule: Callable) -> Callable:
        for p in prims:
            prim = primitives().get(p) if isinstance(p, str) else p
            if not isinstance(prim, Primitive):
                raise SporelingError("def_sharding_rule names no primitive",
                                     op="def_sharding_rule",
                                     expected="a Primitive or an installed primitive's name",
                                     got=repr(p))
            prim.def_sharding_rule(rule)
        return rule
    return put
