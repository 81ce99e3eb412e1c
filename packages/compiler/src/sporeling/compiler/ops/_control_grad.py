"""Backward rules of the control-flow primitives, written with the primitives themselves.

* ``cond``: a ``cond`` of the two branches' VJP graphs (each gives cotangents for every
  float operand: zeros where a branch does not use one).
* ``scan``: a forward ``scan`` that also stacks the carry entering each iteration (the
  residuals), then a reverse ``scan`` of the body's VJP over them. The forward runs twice
  (once as the primitive, once here) -- the price of a rule that sees only inputs and
  outputs. Both are ``scan`` equations, so the backward traces into Graph mode and
  differentiates again.
* ``while_loop``: the trip count is data-dependent, so the rule replays the loop on the
  saved inputs, keeping every carry in a Python list, then runs the body's VJP backwards
  over it. That needs concrete values: under tracing (Graph mode) it raises an error that
  suggests ``fori_loop`` with static bounds or ``scan`` (JAX has the same limit).

Derived graphs depend only on the primitive's sub-graphs, so they are cached per graph.
"""
from __future__ import annotations

import weakref

import numpy as np

from sporeling.core import SporelingError, dtypes

from ..core import def_backward
from ..ir.evaluate import evaluate
from ..ir.graph import Graph
from ..ir.trace import make_graph
from ._control_loops import concrete
from .control import cond_p, scan_p, while_p

_CACHE: "weakref.WeakKeyDictionary[Graph, dict]" = weakref.WeakKeyDictionary()


def _cached(graph: Graph, key, build):
    table = _CACHE.setdefault(graph, {})
    if key not in table:
        table[key] = build()
    return table[key]


def _floats(avals) -> tuple[int, ...]:
    return tuple(i for i, a in enumerate(avals) if dtypes.is_floating(np.dtype(a.dtype)))


def vjp_graph(g: Graph, diff_in: tuple, diff_out: tuple) -> Graph:
    """``sporeling.compiler.transforms.vjp_graph`` of ``g`` -- inputs ``(*g's inputs,
    *cotangents of outputs diff_out)``, outputs the cotangents of inputs ``diff_in`` --
    built once per sub-graph."""
    def build():
        from ..transforms.graph_autodiff import vjp_graph as general
        return general(g, diff_in, diff_out, outputs=False)
    return _cached(g, ("vjp", diff_in, diff_out), build)


# -- cond -----------------------------------------------------------------------------------

@def_backward(cond_p)
def _cond_bwd(ct, pred, *args, out, true_graph, false_graph):
    diff_in = _floats(true_graph.in_avals)
    diff_out = _floats(true_graph.out_avals)
    vt = vjp_graph(true_graph, diff_in, diff_out)
    vf = vjp_graph(false_graph, diff_in, diff_out)
    grads = cond_p.bind(pred, *args, *(ct[j] for j in diff_out), true_graph=vt,
                        false_graph=vf) if diff_in else ()
    cts = [None] * len(args)
    for i, gr in zip(diff_in, grads):
        cts[i] = gr
    return (None, *cts)


# -- scan -----------------------------------------------------------------------------------

def _residual_body(body: Graph, n_carry: int) -> Graph:
    """The body, stacking the carry it receives instead of its own ys."""
    def build():
        return Graph(list(body.inputs), body.equations,
                     body.outputs[:n_carry] + body.inputs[:n_carry], f"{body.name}_res", {})
    return _cached(body, ("res", n_carry), build)


def _reverse_body(body: Graph, n_carry: int, n_xs: int):
    """``(ct_carry, ct_consts acc), (carry_k, x_k, ct_y_k), consts -> new cts, ct_x_k``."""
    avals = body.in_avals
    n_in = len(avals)
    fc = _floats(avals[:n_carry])
    fx = tuple(i for i in _floats(avals) if n_carry <= i < n_carry + n_xs)
    fk = tuple(i for i in _floats(avals) if i >= n_carry + n_xs)
    fy = tuple(j for j in _floats(body.out_avals) if j >= n_carry)
    diff_in, diff_out = fc + fx + fk, fc + fy

    def build():
        from .elementwise import add
        vg = vjp_graph(body, diff_in, diff_out)

        def rbody(*flat):
            ct_c, acc = flat[:len(fc)], flat[len(fc):len(fc) + len(fk)]
            rest = flat[len(fc) + len(fk):]
            primals = list(rest[:n_carry + n_xs]) + list(rest[n_carry + n_xs + len(fy):])
            ct_y = rest[n_carry + n_xs:n_carry + n_xs + len(fy)]
            grads = evaluate(vg, *primals, *ct_c, *ct_y)
            dc, dx = grads[:len(fc)], grads[len(fc):len(fc) + len(fx)]
            dk = grads[len(fc) + len(fx):]
            return list(dc) + [add(a, d) for a, d in zip(acc, dk)] + list(dx)

        avals_in = [avals[i] for i in fc + fk] + list(avals[:n_carry + n_xs]) \
            + [body.out_avals[j] for j in fy] + list(avals[n_carry + n_xs:n_in])
        return make_graph(rbody, *avals_in, name=f"{body.name}_rev", record_source=False)
    return _cached(body, ("rev", n_carry, n_xs), build), fc, fx, fk, fy


@def_backward(scan_p)
def _scan_bwd(ct, *args, out, body_graph, n_carry, n_xs, length, reverse):
    xs = args[n_carry:n_carry + n_xs]
    consts = args[n_carry + n_xs:]
    res = scan_p.bind(*args, body_graph=_residual_body(body_graph, n_carry), n_carry=n_carry,
                      n_xs=n_xs, length=length, reverse=reverse)
    stacked_carries = res[n_carry:]
    rev, fc, fx, fk, fy = _reverse_body(body_graph, n_carry, n_xs)
    acc = [np.zeros(body_graph.in_avals[i].shape, body_graph.in_avals[i].dtype) for i in fk]
    outs = scan_p.bind(*(ct[i] for i in fc), *acc, *stacked_carries, *xs,
                       *(ct[j] for j in fy), *consts, body_graph=rev,
                       n_carry=len(fc) + len(fk), n_xs=n_carry + n_xs + len(fy),
                       length=length, reverse=not reverse)
    cts = [None] * len(args)
    for i, gr in zip(fc + fk, outs[:len(fc) + len(fk)]):
        cts[i] = gr
    for i, gr in zip(fx, outs[len(fc) + len(fk):]):
        cts[i] = gr
    return tuple(cts)


# -- while_loop -------------------------------------------------------------------------------

class WhileGradError(SporelingError):
    """Reverse mode through a ``while_loop`` whose trip count is unknown (being traced)."""


def _truth(pred) -> bool:
    value = concrete(pred)
    if value is None:
        raise WhileGradError(
            "reverse-mode differentiation of a while_loop needs its trip count, which is "
            "data-dependent while the graph is being built", op="while_loop grad",
            hint="use fori_loop with static bounds or scan (a fixed trip count), or "
                 "differentiate in PyNative mode")
    return bool(np.asarray(value))


@def_backward(while_p)
def _while_bwd(ct, *args, out, cond_graph, body_graph):
    n, nc = len(body_graph.outputs), len(cond_graph.inputs)
    carry, cond_consts, body_consts = list(args[:n]), args[n:nc], list(args[nc:])
    carries = []
    while _truth(evaluate(cond_graph, *carry, *cond_consts)[0]):
        carries.append(carry)
        carry = evaluate(body_graph, *carry, *body_consts)
    fc = _floats(body_graph.in_avals[:n])
    fk = tuple(i for i in _floats(body_graph.in_avals) if i >= n)
    vg = vjp_graph(body_graph, fc + fk, fc)
    ct_c = [ct[i] for i in fc]
    acc = None
    for past in reversed(carries):
        grads = evaluate(vg, *past, *body_consts, *ct_c)
        ct_c, dk = grads[:len(fc)], grads[len(fc):]
        if acc is None:
            acc = list(dk)
        else:
            from .elementwise import add
            acc = [add(a, d) for a, d in zip(acc, dk)]
    cts = [None] * len(args)
    for i, gr in zip(fc, ct_c):
        cts[i] = gr
    for i, gr in zip(fk, acc or [np.zeros(body_graph.in_avals[i].shape,
                                          body_graph.in_avals[i].dtype) for i in fk]):
        cts[nc + i - n] = gr
    return tuple(cts)
