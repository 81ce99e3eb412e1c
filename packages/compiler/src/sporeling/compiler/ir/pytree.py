"""Nested tuples, lists and dicts of values, flattened to a list of leaves and back."""
from __future__ import annotations

from typing import Any, Callable

__all__ = ["flatten", "unflatten"]


def flatten(tree, is_leaf: Callable[[Any], bool] | None = None) -> tuple[list, Any]:
    """``(leaves, structure)``; tuples, lists and dicts (sorted keys) are containers."""
    leaves: list = []

    def walk(node):
        if is_leaf is not None and is_leaf(node):
            leaves.append(node)
            return None
        if isinstance(node, (tuple, list)):
            return (type(node), tuple(walk(n) for n in node))
        if isinstance(node, dict):
            keys = sorted(node)
            return (dict, tuple(keys), tuple(walk(node[k]) for k in keys))
        leaves.append(node)
        return None  # a leaf

    return leaves, walk(tree)


def unflatten(structure, leaves) -> Any:
    """The inverse of :func:`flatten`."""
    if structure is None:  # one leaf (a compiled call's usual result)
        return next(iter(leaves))
    it = iter(leaves)

    def build(node):
        if node is None:
            return next(it)
        if node[0] is dict:
            return {k: build(n) for k, n in zip(node[1], node[2])}
        kind, children = node
        values = [build(n) for n in children]
        return kind(values) if kind is list else (
            kind(*values) if hasattr(kind, "_fields") else tuple(values))

    return build(structure)
