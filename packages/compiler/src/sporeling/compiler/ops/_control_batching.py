"""vmap rules of the control-flow primitives (``control.py`` imports this module at its end):
the sub-graphs are batched themselves (traced through ``vmap`` of their evaluation), with
every carry batched on axis 0.

* ``cond`` with one predicate for the batch stays a ``cond`` of batched branches; a
  predicate per example evaluates both branches and selects (``where``).
* ``while_loop`` runs while any example's condition holds; finished examples keep their
  carry (a ``where`` in the body).
* ``scan`` scans batched ``xs`` laid out ``(length, B, ...)``; its ys come out that way.
* ``check`` with an error code per example raises if any example's code is set.
"""
from __future__ import annotations

import numpy as np

from ..core import Aval, bind
from ..core.aval import aval_of
from ..ir import evaluate, make_graph
from ._batching import aligned, at_front, batch_size, move_axis, to_front
from ._control_check import check_p
from .control import cond_p, scan_p, while_p


def _batched_graph(graph, args, dims):
    """``graph`` mapped over the batch axes ``dims`` of ``args``; every output on axis 0."""
    from ..transforms.vmap import vmap
    fn = vmap(lambda *xs: tuple(evaluate(graph, *xs)), in_axes=tuple(dims), out_axes=0)
    new = make_graph(fn, *map(aval_of, args), name=f"vmap({graph.name})", record_source=False)
    return new


def _select(pred, a, b):
    from .comparison import where
    return where(aligned(pred, 0, len(a.shape) - 1), a, b)


@cond_p.def_batching
def _cond_batching(args, dims, *, true_graph, false_graph):
    pred, ops, dp, dops = args[0], list(args[1:]), dims[0], list(dims[1:])
    size = batch_size(args, dims)
    if dp is None:
        graphs = [_batched_graph(g, ops, dops) for g in (true_graph, false_graph)]
        outs = bind(cond_p, pred, *ops, true_graph=graphs[0], false_graph=graphs[1])
        return outs, (0,) * len(outs)
    from ..transforms.vmap import vmap
    if all(d is None for d in dops):  # vmap needs one mapped operand: map the predicate
        ops, dops = [at_front(o, None, size) for o in ops], [0] * len(ops)
    run = [vmap(lambda *xs, g=g: tuple(evaluate(g, *xs)), in_axes=tuple(dops))(*ops)
           for g in (true_graph, false_graph)]
    pred = to_front(pred, dp)
    outs = tuple(_select(pred, at_front(t, None, size) if t.shape[:1] != (size,) else t,
                         f) for t, f in zip(*run))
    return outs, (0,) * len(outs)


@while_p.def_batching
def _while_batching(args, dims, *, cond_graph, body_graph):
    from .reduction import any as reduce_any
    n, nc = len(body_graph.outputs), len(cond_graph.inputs)
    size = batch_size(args, dims)
    carry = [at_front(a, d, size) for a, d in zip(args[:n], dims[:n])]
    cond_consts, body_consts = list(args[n:nc]), list(args[nc:])
    cdims, bdims = [0] * n + list(dims[n:nc]), [0] * n + list(dims[nc:])
    cond_b = _batched_graph(cond_graph, carry + cond_consts, cdims)

    def cond_fn(*xs):
        return reduce_any(evaluate(cond_b, *xs)[0])

    body_b = _batched_graph(body_graph, carry + body_consts, bdims)

    def body_fn(*xs):
        c, consts = list(xs[:n]), list(xs[n:])
        running = evaluate(cond_b, *c, *consts[:nc - n])[0]
        new = evaluate(body_b, *c, *consts[nc - n:])
        return tuple(_select(running, a, b) for a, b in zip(new, c))

    specs = [aval_of(x) for x in carry + cond_consts + body_consts]
    cg = make_graph(lambda *xs: cond_fn(*xs), *specs[:nc], name="any(cond)",
                    record_source=False)
    bg = make_graph(body_fn, *specs, name="masked(body)", record_source=False)
    outs = bind(while_p, *carry, *cond_consts, *cond_consts, *body_consts,
                cond_graph=cg, body_graph=bg)
    return outs, (0,) * len(outs)


@scan_p.def_batching
def _scan_batching(args, dims, *, body_graph, n_carry, n_xs, length, reverse):
    size = batch_size(args, dims)
    carry = [at_front(a, d, size) for a, d in zip(args[:n_carry], dims[:n_carry])]
    xs, consts = [], list(args[n_carry + n_xs:])
    x_dims = []
    for x, d in zip(args[n_carry:n_carry + n_xs], dims[n_carry:n_carry + n_xs]):
        xs.append(x if d is None else move_axis(x, d, 1))  # (length, B, ...)
        x_dims.append(None if d is None else 0)
    slices = [Aval(tuple(x.shape[1:]), np.dtype(x.dtype)) for x in xs]
    in_dims = [0] * n_carry + x_dims + list(dims[n_carry + n_xs:])
    body = _batched_graph(body_graph, carry + slices + consts, in_dims)
    outs = bind(scan_p, *carry, *xs, *consts, body_graph=body, n_carry=n_carry, n_xs=n_xs,
                length=length, reverse=reverse)
    return outs, (0,) * n_carry + (1,) * (len(outs) - n_carry)


@check_p.def_batching
def _check_batching(args, dims, *, errors):
    from .reduction import max as reduce_max
    code = args[0] if dims[0] is None else reduce_max(args[0], axis=dims[0])
    return bind(check_p, code, *args[1:], errors=errors), tuple(dims[1:])
