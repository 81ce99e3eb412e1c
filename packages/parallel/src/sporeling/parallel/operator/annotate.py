"""Strategies attached to equations while a function is traced.

``with strategy(((2, 1), (1, 1))): y = ops.matmul(x, w)`` marks the first equation recorded
inside the block whose operands match the strategy (one tuple per operand, one number per
dimension); a layer that records several equations (a layer norm: normalise, scale, shift)
gets the strategy on the first that fits, and the rest follow by propagation. Outside a
trace the block does nothing (a single device runs every op whole).
"""
from __future__ import annotations

import weakref
from contextlib import contextmanager

from sporeling.compiler.ir.trace import innermost_trace

__all__ = ["strategy", "annotation"]

_ANNOTATIONS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _fits(eq, st) -> bool:
    return len(eq.inputs) == len(st) and all(
        len(v.aval.shape) == len(s) for v, s in zip(eq.inputs, st))


@contextmanager
def strategy(st):
    """Annotate the op recorded in this block with ``st`` (see the module doc)."""
    st = tuple(tuple(int(n) for n in s) for s in st)
    trace = innermost_trace()
    start = len(trace.equations) if trace is not None else 0
    yield
    if trace is None:
        return
    for eq in trace.equations[start:]:
        if _fits(eq, st):
            _ANNOTATIONS[eq] = st
            return
    from .errors import ShardingError
    got = [tuple(len(v.aval.shape) for v in eq.inputs) for eq in trace.equations[start:]]
    raise ShardingError("no op in the block matches the strategy", op="shard",
                        expected=f"an op with operand ranks {tuple(len(s) for s in st)}",
                        got=f"ops with operand ranks {got}" if got else "no op",
                        where=trace.equations[start].source if got else None)


def annotation(eq):
    """The strategy attached to ``eq`` while tracing, or None."""
    return _ANNOTATIONS.get(eq)
