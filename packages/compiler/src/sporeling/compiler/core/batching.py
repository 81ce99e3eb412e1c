"""Batching rules: how each primitive acts on a batch of values (for ``vmap``).

A batching rule is ``rule(args, dims, **params) -> (out, out_dim)``: ``args`` are the
operands with their batch axis still in them, ``dims[i]`` is that axis (``None`` for an
operand that is the same for every example); the rule returns the batched result and the
axis its batch lies on (``None`` when the result does not vary over the batch). A
multi-result primitive returns a tuple of results and a tuple of axes. Rules are written
with the functional ops or by binding primitives on the batched values, so they run under
every interpreter (vmap of grad, grad of vmap, nested vmap).

A rule lives on its primitive (:meth:`Primitive.def_batching`, or :func:`def_batching` for
several primitives sharing one rule), written next to the primitive's other rules. A
primitive declared ``elementwise=True`` needs none: it gets the broadcasting rule of
``sporeling.compiler.ops._batching``.

    >>> import numpy as np
    >>> from sporeling.compiler import primitives
    >>> rule = batching_rule(primitives()["neg"])
    >>> rule([np.ones((3, 2))], [0])[1]
    0
"""
from __future__ import annotations

from typing import Callable

from .primitive import MissingRuleError, Primitive

__all__ = ["def_batching", "batching_rule", "has_batching_rule"]


def def_batching(*prims: Primitive):
    """Decorator: ``rule`` becomes the batching rule of every primitive in ``prims``."""
    def put(rule: Callable) -> Callable:
        for prim in prims:
            prim.batching = rule
        return rule
    return put


def has_batching_rule(prim: Primitive) -> bool:
    """Whether ``prim`` has a batching rule (its own, or the elementwise one)."""
    return prim.batching is not None or prim.elementwise


def batching_rule(prim: Primitive) -> Callable:
    """``prim``'s batching rule, or an error naming the primitive and vmap."""
    rule = prim.batching
    if rule is None and prim.elementwise:
        from ..ops._batching import elementwise_rule  # ops import this module
        rule = prim.batching = elementwise_rule(prim)
    if rule is None:
        raise MissingRuleError(f"primitive {prim.name!r} has no batching rule, so vmap cannot "
                               "map it over a batch", op="vmap", got=prim.name,
                               hint="define one with prim.def_batching next to the "
                                    "primitive, or declare it elementwise=True")
    return rule
