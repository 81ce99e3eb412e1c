"""The batching-rule table: how each primitive acts on a batch of values (for ``vmap``).

A batching rule is ``rule(args, dims, **params) -> (out, out_dim)``: ``args`` are the
operands with their batch axis still in them, ``dims[i]`` is that axis (``None`` for an
operand that is the same for every example); the rule returns the batched result and the
axis its batch lies on (``None`` when the result does not vary over the batch). A
multi-result primitive returns a tuple of results and a tuple of axes. Rules are written
with the functional ops or by binding primitives on the batched values, so they run under
every interpreter (vmap of grad, grad of vmap, nested vmap).

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

_BATCHING: dict[str, Callable] = {}


def def_batching(*prims: Primitive):
    """Decorator: ``rule`` becomes the batching rule of every primitive in ``prims``."""
    def put(rule: Callable) -> Callable:
        for prim in prims:
            _BATCHING[prim.name] = rule
        return rule
    return put


def has_batching_rule(prim: Primitive) -> bool:
    """Whether ``prim`` has a batching rule."""
    _load_rules()
    return prim.name in _BATCHING


def batching_rule(prim: Primitive) -> Callable:
    """``prim``'s batching rule, or an error naming the primitive and vmap."""
    rule = _BATCHING.get(prim.name)
    if rule is None:
        _load_rules()
        rule = _BATCHING.get(prim.name)
    if rule is None:
        raise MissingRuleError(f"primitive {prim.name!r} has no batching rule, so vmap cannot "
                               "map it over a batch", op="vmap", got=prim.name,
                               hint="define one with def_batching(prim) in "
                                    "sporeling.compiler.core.batching")
    return rule


def _load_rules() -> None:
    from ..ops import batching_rules  # noqa: F401  (registers the built-in rules)
