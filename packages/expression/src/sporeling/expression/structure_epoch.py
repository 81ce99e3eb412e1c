"""One counter that moves whenever what a compiled graph depends on might have changed:
a Cell's Parameters, sub-Cells or ``training`` flag, a Parameter's shape or dtype.

A compiled call's guards (``graph.cache``) walk the Parameters and Cells they depend on
only when the counter moved since their last check, so an unchanged network costs one
comparison per call, not a walk over every Parameter and Cell.
"""
from __future__ import annotations

__all__ = ["EPOCH", "changed"]

EPOCH = [0]
"""``EPOCH[0]``: read on hot paths without a call."""


def changed() -> None:
    """Say that a Cell's structure or flag, or a Parameter's shape or dtype, changed."""
    EPOCH[0] += 1
