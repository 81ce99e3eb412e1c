"""Collectives as compiler primitives: they appear in the IR, run in Graph mode (``sx.jit``)
and differentiate (``sx.grad``) with these backward rules:

=================  ==========================================================
primitive          backward (``ct``: the cotangent of the output)
=================  ==========================================================
``all_reduce``     sum/mean: ``all_reduce(ct)``; max/min: ``all_reduce(ct) * (x == out)``;
                   prod: ``all_reduce(ct) * out / x``
``all_gather``     ``reduce_scatter(ct, sum)`` along the same axis
``reduce_scatter`` ``all_gather(ct)`` (sum; mean divides by the group size)
``broadcast``      ``reduce(ct)`` to the root (zeros elsewhere)
``reduce``         ``broadcast(ct)`` from the root
``all_to_all``     ``all_to_all(ct)`` with the split and concat axes swapped
``send``           ``recv`` of the gradient from the destination
``recv``           ``send`` of ``ct`` back to the source
=================  ==========================================================

The gradient convention is SPMD's: every rank differentiates its own loss, and a rank's
gradient is that of the sum of all ranks' losses. Kernels call this rank's current
communicator (:func:`sporeling.parallel.comm.current`) when they run, so one traced graph
serves every rank (kernels in :mod:`.kernels`). Collectives are never merged, folded or reordered by the passes (they are
``nondeterministic`` to CSE and constant folding); one whose result is unused is dropped like
any dead value, identically on every rank.

``send`` returns a 0-d token (zero): add it to the loss (or return it) so Graph mode keeps the
send and backward reaches it. ``recv(like, source)`` takes an array shaped like the message;
the gradient is sent back when ``like`` is on the differentiated path. Backward messages use
``tag + GRAD_TAG`` so they never meet forward ones.
"""
from __future__ import annotations

import numpy as np

from sporeling.compiler import Primitive, bind, def_backward
from sporeling.compiler.core import Aval
from sporeling.compiler.ops import add, broadcast_to, cast, div, equal, mul
from sporeling.compiler.ir.trace import innermost_trace
from sporeling.compiler.ops._util import as_operand
from sporeling.core.errors import ShapeError

from .comm.base import REDUCE_OPS
from .comm.registry import current
from .errors import CommunicatorError

__all__ = ["all_reduce", "all_gather", "reduce_scatter", "broadcast", "reduce", "all_to_all",
           "send", "recv", "GRAD_TAG", "COLLECTIVES"]

GRAD_TAG = 1 << 14
"""Added to a send/recv tag for the gradient travelling back (user tags stay below it)."""


class _Collective(Primitive):
    """A primitive that talks to other ranks: never merged or folded by the passes."""

    def __init__(self, name: str, **traits):
        super().__init__(name, nondeterministic=True, **traits)


def _check_axis(name, axis, ndim):
    if ndim == 0 or not -ndim <= axis < ndim:
        raise ShapeError("bad axis", op=name, expected=f"an axis of a {ndim}-d operand "
                         "(at least 1-d)", got=f"axis {axis}")
    return axis % ndim


def _size(name, group):
    return current(group, op=name).size


all_reduce_p = _Collective("all_reduce")
all_gather_p = _Collective("all_gather")
reduce_scatter_p = _Collective("reduce_scatter")
broadcast_p = _Collective("broadcast")
reduce_p = _Collective("reduce")
all_to_all_p = _Collective("all_to_all")
send_p = _Collective("send")
recv_p = _Collective("recv")
COLLECTIVES = (all_reduce_p, all_gather_p, reduce_scatter_p, broadcast_p, reduce_p,
               all_to_all_p, send_p, recv_p)


# ---- abstract evaluation ---------------------------------------------------------------------

def _same(x, **params):
    return Aval(tuple(x.shape), np.dtype(x.dtype))


for _p in (all_reduce_p, broadcast_p, reduce_p, recv_p):
    _p.def_abstract_eval(_same)


@all_gather_p.def_abstract_eval
def _all_gather_aval(x, *, axis, size, group):
    shape = list(x.shape)
    shape[axis] *= size
    return Aval(tuple(shape), np.dtype(x.dtype))


def _split(shape, axis: int, size: int, op: str) -> list[int]:
    """``shape`` with ``axis`` split over a group of ``size``; a clear error if it cannot."""
    if shape[axis] % size:
        raise ShapeError(f"axis {axis} does not split over the group", op=op,
                         expected=f"a length divisible by the group size {size}",
                         got=f"shape {tuple(shape)}")
    return [n // size if i == axis else n for i, n in enumerate(shape)]


@reduce_scatter_p.def_abstract_eval
def _reduce_scatter_aval(x, *, op, axis, size, group):
    shape = _split(x.shape, axis, size, "reduce_scatter")
    return Aval(tuple(shape), np.dtype(x.dtype))


@all_to_all_p.def_abstract_eval
def _all_to_all_aval(x, *, split_axis, concat_axis, size, group):
    shape = _split(x.shape, split_axis, size, "all_to_all")
    shape[concat_axis] *= size
    return Aval(tuple(shape), np.dtype(x.dtype))


@send_p.def_abstract_eval
def _send_aval(x, *, dest, tag, group):
    return Aval((), np.dtype(x.dtype))


# ---- backward rules --------------------------------------------------------------------------

@def_backward(all_reduce_p, uses=(0, "out"))
def _all_reduce_bwd(ct, x, *, out, op, group):
    if op in ("sum", "mean"):
        return (all_reduce(ct, op, group),)
    total = all_reduce(ct, "sum", group)
    if op in ("max", "min"):  # the rank(s) holding the extreme get the gradient
        return (mul(total, cast(equal(x, out), total.dtype)),)
    return (div(mul(total, out), x),)  # prod


@def_backward(all_gather_p, uses=())
def _all_gather_bwd(ct, x, *, out, axis, size, group):
    return (reduce_scatter(ct, "sum", axis, group),)


@def_backward(reduce_scatter_p, uses=())
def _reduce_scatter_bwd(ct, x, *, out, op, axis, size, group):
    if op not in ("sum", "mean"):
        raise CommunicatorError("no gradient for this reduction", op="reduce_scatter",
                                expected="op 'sum' or 'mean'", got=repr(op))
    g = all_gather(ct, axis, group)
    return (div(g, size) if op == "mean" else g,)


@def_backward(broadcast_p, uses=())
def _broadcast_bwd(ct, x, *, out, root, group):
    return (reduce(ct, root, group),)


@def_backward(reduce_p, uses=())
def _reduce_bwd(ct, x, *, out, root, group):
    return (broadcast(ct, root, group),)


@def_backward(all_to_all_p, uses=())
def _all_to_all_bwd(ct, x, *, out, split_axis, concat_axis, size, group):
    return (all_to_all(ct, concat_axis, split_axis, group),)


@def_backward(send_p, uses=(0, "out"))
def _send_bwd(ct, x, *, out, dest, tag, group):
    # like = x + token (zero): the gradient's recv depends on the forward send, so a graph
    # returning only gradients keeps the send, and runs it first
    return (recv(add(x, out), dest, tag + GRAD_TAG, group),)


@def_backward(recv_p, uses=(0,))
def _recv_bwd(ct, like, *, out, source, tag, group):
    token = send(ct, source, tag + GRAD_TAG, group)
    return (broadcast_to(token, like.shape),)  # zeros that depend on the send


# ---- the functions ---------------------------------------------------------------------------

def _bind(prim, x, **params):
    """Bind ``prim``; while a graph is being traced, a constant operand (a plain array, or a
    Tensor holding one -- such as the cotangent of a linear loss) is captured into the graph
    instead of running at once: a collective must run when the graph runs, on every rank,
    never once at trace time. Traced operands go through their interpreters as usual."""
    trace = innermost_trace()
    if trace is not None:
        leaf = getattr(x, "_data", x)
        if getattr(leaf, "_interpreter", None) is None:
            out = trace.apply(prim, (leaf,), params)
            if leaf is not x and trace.wrap_fresh is not None:  # a Tensor in, a Tensor out
                return trace.wrap_fresh(out)
            return out
    return bind(prim, x, **params)


def all_reduce(x, op: str = "sum", group: str | None = None):
    """``x`` reduced over ``group`` (None: the world) by ``op``: sum, mean, max, min, prod."""
    if op not in REDUCE_OPS:
        raise CommunicatorError("unknown reduction", op="all_reduce",
                                expected=f"one of {', '.join(REDUCE_OPS)}", got=repr(op))
    return _bind(all_reduce_p, as_operand(x), op=op, group=group)


def all_gather(x, axis: int = 0, group: str | None = None):
    """Every member's ``x`` concatenated along ``axis`` in rank order."""
    x = as_operand(x)
    axis = _check_axis("all_gather", axis, len(x.shape))
    return _bind(all_gather_p, x, axis=axis, size=_size("all_gather", group), group=group)


def reduce_scatter(x, op: str = "sum", axis: int = 0, group: str | None = None):
    """Block ``rank`` (of ``size`` along ``axis``) of ``x`` reduced over the group."""
    x = as_operand(x)
    if op not in REDUCE_OPS:
        raise CommunicatorError("unknown reduction", op="reduce_scatter",
                                expected=f"one of {', '.join(REDUCE_OPS)}", got=repr(op))
    axis = _check_axis("reduce_scatter", axis, len(x.shape))
    return _bind(reduce_scatter_p, x, op=op, axis=axis, size=_size("reduce_scatter", group),
                group=group)


def broadcast(x, root: int = 0, group: str | None = None):
    """``root``'s ``x`` on every member (the others' ``x`` gives shape and dtype)."""
    return _bind(broadcast_p, as_operand(x), root=int(root), group=group)


def reduce(x, root: int = 0, group: str | None = None):
    """The sum of every member's ``x`` on ``root``; zeros on the other members."""
    return _bind(reduce_p, as_operand(x), root=int(root), group=group)


def all_to_all(x, split_axis: int = 0, concat_axis: int = 0, group: str | None = None):
    """Block ``j`` of ``x`` along ``split_axis`` goes to member ``j``; the blocks received
    are concatenated along ``concat_axis``."""
    x = as_operand(x)
    split_axis = _check_axis("all_to_all", split_axis, len(x.shape))
    concat_axis = _check_axis("all_to_all", concat_axis, len(x.shape))
    return _bind(all_to_all_p, x, split_axis=split_axis, concat_axis=concat_axis,
                size=_size("all_to_all", group), group=group)


def send(x, dest: int, tag: int = 0, group: str | None = None):
    """Send ``x`` to member ``dest``; returns a 0-d zero token (see the module doc)."""
    return _bind(send_p, as_operand(x), dest=int(dest), tag=int(tag), group=group)


def recv(like, source: int, tag: int = 0, group: str | None = None):
    """The array member ``source`` sent, shaped and typed like ``like``."""
    return _bind(recv_p, as_operand(like), source=int(source), tag=int(tag), group=group)
