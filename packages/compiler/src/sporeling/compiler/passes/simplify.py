"""Algebraic simplification, as a rewrite table: identities that remove work.

``x*1``, ``1*x``, ``x+0``, ``0+x``, ``x-0``, ``x/1`` (when the constant does not broadcast
``x`` to a bigger shape), ``neg(neg(x))``, transposes composed (or dropped when they cancel),
``transpose(a @ b)`` turned into ``b.T @ a.T``,
reshape chains collapsed and reshapes/broadcasts to the same shape dropped, casts to the
same dtype dropped and cast chains whose first cast is lossless collapsed.

    >>> import numpy as np
    >>> from sporeling.compiler import ops
    >>> from sporeling.compiler.ir import make_graph
    >>> g = make_graph(lambda x: ops.transpose(ops.transpose(ops.mul(x, 1.0))),
    ...                np.ones((2, 3), np.float32))
    >>> out = SIMPLIFY.run(g, PassContext())  # the first transpose is left for dce
    >>> out.outputs == out.inputs
    True
"""
from __future__ import annotations

import numpy as np

from ..ir import Const, Equation
from .base import PassContext  # noqa: F401  (used by the doctest)
from .rewrite import Rewriter, rewrite_pass, same_aval

__all__ = ["SIMPLIFY", "RULES"]


def _is_const(v, value) -> bool:
    return isinstance(v, Const) and v.value.size <= 1 << 16 and bool(np.all(v.value == value))


def _identity(keep: int, other: int, value):
    """``op(x, c) -> x`` when ``c`` is all ``value`` and the result is ``x``'s type."""
    def rule(eq: Equation, rw: Rewriter):
        x, c = eq.inputs[keep], eq.inputs[other]
        if _is_const(c, value) and same_aval(x.aval, eq.outputs[0].aval):
            rw.ctx.count("simplify.identity")
            return x
        return None
    return rule


def _either(*rules):
    def rule(eq, rw):
        for r in rules:
            out = r(eq, rw)
            if out is not None:
                return out
        return None
    return rule


def _producer(rw: Rewriter, v, name: str) -> Equation | None:
    eq = rw.producer(v)
    return eq if eq is not None and eq.prim.name == name else None


def _neg(eq, rw):
    inner = _producer(rw, eq.inputs[0], "neg")
    return inner.inputs[0] if inner is not None else None


def _swaps_last_two(axes) -> bool:
    n = len(axes)
    return n >= 2 and tuple(axes) == tuple(range(n - 2)) + (n - 1, n - 2)


def _uses(rw, v) -> int:
    counts = getattr(rw, "_use_counts", None)
    if counts is None:
        counts = rw._use_counts = rw.graph.use_counts()
    return counts.get(v, 0)


def _transposed_matmul(eq, rw):
    """``transpose(a @ b) -> b.T @ a.T``: the product comes out in the layout it is used in
    (a weight's gradient, computed as ``x.T @ ct`` and transposed, would otherwise reach
    the optimiser as a strided view); the operand transposes are free views or cancel."""
    mm = _producer(rw, eq.inputs[0], "matmul")
    if mm is None or not _swaps_last_two(eq.params["axes"]) or _uses(rw, mm.outputs[0]) != 1:
        return None
    a, b = mm.inputs
    if len(a.aval.shape) < 2 or len(b.aval.shape) < 2:
        return None
    swap = lambda v: rw.bind("transpose", v, axes=tuple(range(len(v.aval.shape) - 2))
                             + (len(v.aval.shape) - 1, len(v.aval.shape) - 2))
    rw.ctx.count("simplify.transposed_matmul")
    return rw.bind("matmul", swap(b), swap(a))


def _transpose(eq, rw):
    inner = _producer(rw, eq.inputs[0], "transpose")
    if inner is None:
        return _transposed_matmul(eq, rw)
    a, b = inner.params["axes"], eq.params["axes"]
    axes = tuple(a[i] for i in b)  # out[i] = inner[b[i]] = x[a[b[i]]]
    x = inner.inputs[0]
    rw.ctx.count("simplify.transpose")
    return x if axes == tuple(range(len(axes))) else rw.bind("transpose", x, axes=axes)


def _reshape(eq, rw):
    x = eq.inputs[0]
    inner = _producer(rw, x, "reshape")
    if inner is not None:
        x = inner.inputs[0]
    if tuple(x.aval.shape) == tuple(eq.outputs[0].aval.shape):
        rw.ctx.count("simplify.reshape")
        return x
    if inner is not None:
        rw.ctx.count("simplify.reshape")
        return rw.bind("reshape", x, shape=tuple(eq.outputs[0].aval.shape))
    return None


def _broadcast_to(eq, rw):
    x = eq.inputs[0]
    inner = _producer(rw, x, "broadcast_to")
    if inner is not None:
        x = inner.inputs[0]
    if tuple(x.aval.shape) == tuple(eq.outputs[0].aval.shape):
        return x
    if inner is not None:
        return rw.bind("broadcast_to", x, shape=tuple(eq.outputs[0].aval.shape))
    return None


def _cast(eq, rw):
    x, dtype = eq.inputs[0], np.dtype(eq.outputs[0].aval.dtype)
    inner = _producer(rw, x, "cast")
    if inner is not None and np.can_cast(inner.inputs[0].aval.dtype, x.aval.dtype, "safe"):
        x = inner.inputs[0]  # the first cast lost nothing: skip it
        if np.dtype(x.aval.dtype) != dtype:
            rw.ctx.count("simplify.cast")
            return rw.bind("cast", x, dtype=dtype)
    if np.dtype(x.aval.dtype) == dtype:
        rw.ctx.count("simplify.cast")
        return x
    return None


RULES = {
    "mul": _either(_identity(0, 1, 1), _identity(1, 0, 1)),
    "add": _either(_identity(0, 1, 0), _identity(1, 0, 0)),
    "sub": _identity(0, 1, 0),
    "div": _identity(0, 1, 1),
    "neg": _neg,
    "transpose": _transpose,
    "reshape": _reshape,
    "broadcast_to": _broadcast_to,
    "cast": _cast,
}
"""Primitive name -> rewrite rule (a plugin may build a pass from its own table the same
way, with :func:`~.rewrite.rewrite_pass`)."""

SIMPLIFY = rewrite_pass("simplify", RULES, stage="simplify", order=20,
                        doc="algebraic identities: x*1, x+0, neg(neg(x)), transpose, "
                            "reshape, broadcast and cast chains")
