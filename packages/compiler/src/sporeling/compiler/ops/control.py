"""Functional control flow: ``cond``, ``while_loop``, ``scan``, ``fori_loop`` (JAX semantics).

Each op traces its Python callables into sub-graphs (held in the equation's parameters;
values they close over become explicit operands) and binds one primitive, so it runs
eagerly, is recorded as one node by PyNative ``grad`` and is one equation in a traced graph.
No backend kernel runs these primitives: their :meth:`Primitive.impl` evaluates the
sub-graphs. Carries and operands may be pytrees (tuples, lists, dicts) of tensors; Python
numbers among them are *weak* (they take the dtype and shape they are merged with) and
other Python values are static (they must agree on every path). Reverse mode: ``cond`` and
``scan`` (hence ``fori_loop`` with static bounds) in every mode, to any order;
``while_loop`` only eagerly (its trip count must be known; see ``_control_grad``).

    >>> import numpy as np
    >>> from sporeling.compiler import ops
    >>> ops.cond(np.array(True), lambda x: ops.mul(x, 2.0), lambda x: ops.sub(x, 1.0),
    ...          np.float32(3))
    array(6., dtype=float32)
    >>> ops.while_loop(lambda c: ops.less(c[0], 5),
    ...                lambda c: (ops.add(c[0], 1), ops.mul(c[1], 2.0)),
    ...                (np.int64(0), np.float32(1)))
    (array(5), array(32., dtype=float32))
    >>> ops.scan(lambda c, x: (ops.add(c, x), ops.mul(c, x)), np.float32(0),
    ...          np.arange(1, 4, dtype=np.float32))
    (array(6., dtype=float32), array([0., 2., 9.], dtype=float32))
    >>> ops.fori_loop(0, 4, lambda i, v: ops.add(v, i), np.int64(10))
    array(16)
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from sporeling.core import ShapeError, SporelingError

from ..core import Aval, Primitive
from ..ir.evaluate import evaluate
from ..ir.graph import Const
from ..ir.trace import user_source
from ._control_loops import loop_carry, merge_branches, predicate, static_int
from ._util import check_callable, check_int
from ._control_trace import (bind_operands, flatten, is_array, model_of, trace,
                             unflatten, wrap_like)

__all__ = ["cond", "while_loop", "scan", "fori_loop"]

# amp="never": AMP converts the sub-graphs inside, not the control-flow equation itself
cond_p = Primitive("cond", multiple_results=True, amp="never",
                   doc="outputs of true_graph or false_graph on the operands, by pred")
while_p = Primitive("while_loop", multiple_results=True, amp="never",
                    doc="body_graph applied to the carry while cond_graph holds")
scan_p = Primitive("scan", multiple_results=True, amp="never",
                   doc="body_graph over the leading axis of xs: (final carry, stacked ys)")


def _avals_equal(avals, graph_avals) -> bool:
    return len(avals) == len(graph_avals) and all(
        tuple(a.shape) == tuple(b.shape) and np.dtype(a.dtype) == np.dtype(b.dtype)
        for a, b in zip(avals, graph_avals))


def _check(ok: bool, op: str, what: str, expected, got) -> None:
    if not ok:
        raise ShapeError(what, op=op, expected=expected, got=got, where=user_source())


# -- abstract rules -------------------------------------------------------------------------

@cond_p.def_abstract_eval
def _cond_abstract(pred, *args, true_graph, false_graph):
    _check(tuple(pred.shape) == () and np.dtype(pred.dtype) == np.bool_, "cond",
           "the predicate must be a bool scalar", "bool[]", repr(Aval(pred.shape, pred.dtype)))
    for g in (true_graph, false_graph):
        _check(_avals_equal(args, g.in_avals), "cond", f"operands do not fit {g.name}",
               g.in_avals, [Aval(a.shape, a.dtype) for a in args])
    _check(_avals_equal(true_graph.out_avals, false_graph.out_avals), "cond",
           "the branches' results differ", f"true branch {true_graph.out_avals}",
           f"false branch {false_graph.out_avals}")
    return tuple(true_graph.out_avals)


@while_p.def_abstract_eval
def _while_abstract(*args, cond_graph, body_graph):
    n = len(body_graph.outputs)
    carry = args[:n]
    _check(_avals_equal(carry, body_graph.out_avals), "while_loop",
           "the body's results differ from the carry", [Aval(a.shape, a.dtype) for a in carry],
           body_graph.out_avals)
    nc = len(cond_graph.inputs)
    _check(_avals_equal(args[:nc], cond_graph.in_avals) and
           _avals_equal(carry + args[nc:], body_graph.in_avals), "while_loop",
           "operands do not fit the sub-graphs", [cond_graph.in_avals, body_graph.in_avals],
           [Aval(a.shape, a.dtype) for a in args])
    _check(_avals_equal(cond_graph.out_avals, [Aval((), np.dtype(np.bool_))]), "while_loop",
           "the condition must give a bool scalar", "bool[]", cond_graph.out_avals)
    return tuple(body_graph.out_avals)


@scan_p.def_abstract_eval
def _scan_abstract(*args, body_graph, n_carry, n_xs, length, reverse):
    xs = args[n_carry:n_carry + n_xs]
    _check(all(len(x.shape) >= 1 and x.shape[0] == length for x in xs), "scan",
           "xs must have the scan length as leading axis", f"leading axis {length}",
           [tuple(x.shape) for x in xs])
    slices = [Aval(tuple(x.shape[1:]), x.dtype) for x in xs]
    ins = list(args[:n_carry]) + slices + list(args[n_carry + n_xs:])
    _check(_avals_equal(ins, body_graph.in_avals), "scan", "operands do not fit the body",
           body_graph.in_avals, [Aval(a.shape, a.dtype) for a in ins])
    outs = body_graph.out_avals
    _check(_avals_equal(args[:n_carry], outs[:n_carry]), "scan",
           "the body's carry differs from the initial carry",
           [Aval(a.shape, a.dtype) for a in args[:n_carry]], outs[:n_carry])
    return tuple(outs[:n_carry]) + tuple(Aval((length,) + tuple(a.shape), a.dtype)
                                         for a in outs[n_carry:])


# -- what the primitives do, once: the eager impls below and the lowering
#    (``sporeling.compiler.lowering.control``) pass their own sub-graph runners ---------------

def run_cond(pred, args, true_run, false_run) -> tuple:
    """``cond``: the branch ``pred`` picks, run on ``args``."""
    return tuple((true_run if bool(pred) else false_run)(*args))


def run_while(args, n: int, nc: int, cond_run, body_run) -> tuple:
    """``while_loop``: ``args`` are the ``n`` carries, then the condition's constants (up
    to ``nc``), then the body's."""
    carry, cond_consts, body_consts = list(args[:n]), args[n:nc], args[nc:]
    while bool(cond_run(*carry, *cond_consts)[0]):
        carry = body_run(*carry, *body_consts)
    return tuple(carry)


def run_scan(args, n_carry: int, n_xs: int, length: int, reverse: bool, y_avals,
             body_run) -> tuple:
    """``scan``: the carries, then ``n_xs`` arrays sliced along axis 0, then constants;
    returns the final carries and the stacked per-step results."""
    carry = list(args[:n_carry])
    xs, consts = args[n_carry:n_carry + n_xs], list(args[n_carry + n_xs:])
    # a list of per-step results only when there are some (fori_loop has none: its length
    # may be a far bound's)
    ys: list = [None] * length if len(y_avals) else []
    for i in (range(length - 1, -1, -1) if reverse else range(length)):
        out = body_run(*carry, *(x[i] for x in xs), *consts)
        carry = out[:n_carry]
        if ys:
            ys[i] = out[n_carry:]
    stacked = [np.stack([y[j] for y in ys]) if length else
               np.empty((0,) + tuple(aval.shape), aval.dtype)
               for j, aval in enumerate(y_avals)]
    return tuple(carry) + tuple(stacked)


def _runner(graph):
    def run(*args) -> list:
        out = evaluate(graph, *args)
        # a constant output must not alias the graph's (shared) constant
        return [np.array(o) if isinstance(v, Const) else o for o, v in zip(out, graph.outputs)]
    return run


@cond_p.def_impl
def _cond_impl(pred, *args, true_graph, false_graph):
    return run_cond(pred, args, _runner(true_graph), _runner(false_graph))


@while_p.def_impl
def _while_impl(*args, cond_graph, body_graph):
    return run_while(args, len(body_graph.outputs), len(cond_graph.inputs),
                     _runner(cond_graph), _runner(body_graph))


@scan_p.def_impl
def _scan_impl(*args, body_graph, n_carry, n_xs, length, reverse):
    return run_scan(args, n_carry, n_xs, length, reverse, body_graph.out_avals[n_carry:],
                    _runner(body_graph))


# -- the ops ----------------------------------------------------------------------------

def _rewrap(results, like):
    return [wrap_like(like, r) for r in results] if like is not None else list(results)


def cond(pred, true_fn: Callable, false_fn: Callable, *operands):
    """``true_fn(*operands)`` if ``pred`` else ``false_fn(*operands)``, as one primitive.

    Both branches are traced; they must return the same structure, shapes and dtypes.
    """
    check_callable("cond", "true_fn", true_fn)
    check_callable("cond", "false_fn", false_fn)
    return cond_core(pred, true_fn, false_fn, list(operands))


def cond_core(pred, true_fn, false_fn, operands: list, *, names=None, zero_ok=frozenset(),
              where=None):
    """``cond`` on a list of operands; with ``names`` both branches return one value per
    name (the AST pass's variables), and an undefined variable of ``zero_ok`` on one side
    becomes zeros (a return value guarded by a flag)."""
    where = where or user_source()
    like = model_of(pred, operands)
    pred = predicate(pred, "cond", where)
    n = None if names is None else len(names)
    t = trace(true_fn, operands, "cond_true", n)
    f = trace(false_fn, operands, "cond_false", n)
    dyn = [leaf for leaf in flatten(list(operands))[0] if is_array(leaf)]
    tg, fg, plan = merge_branches(t, f, len(dyn), names, zero_ok, where)
    out = cond_p.bind(*bind_operands([pred, *dyn, *t.captured, *f.captured]),
                      true_graph=tg, false_graph=fg)
    results = iter(_rewrap(out, like))
    values = [unflatten(tree, [next(results) if k == "out" else v for k, v in leaves])
              for tree, leaves in plan]
    return values[0] if names is None else tuple(values)


def while_loop(cond_fn: Callable, body_fn: Callable, init_val):
    """Repeat ``val = body_fn(val)`` while ``cond_fn(val)``; returns the final ``val``.

    The body must return the carry's structure, shapes and dtypes. Reverse-mode
    differentiable only eagerly (use ``fori_loop`` with static bounds, or ``scan``, in
    Graph mode).
    """
    check_callable("while_loop", "cond_fn", cond_fn)
    check_callable("while_loop", "body_fn", body_fn)
    return while_core(lambda parts: cond_fn(parts[0]), lambda parts: [body_fn(parts[0])],
                      [init_val])[0]


def while_core(cond_fn, body_fn, parts: list, *, names=None, zero_ok=frozenset(), where=None):
    """``while_loop`` over a list of carry parts; ``cond_fn(parts)``, ``body_fn(parts) ->
    parts``."""
    where = where or user_source()
    names = names or ["the carry"]
    body, parts, plan = loop_carry(lambda *p: body_fn(list(p)), parts, [], names, zero_ok,
                                   "while_loop", where)
    # the condition sees the carry as the body does (a Python counter that became an
    # array is wrapped like the loop's tensors, so `i < 5` works in both)
    c = trace(lambda *p: [predicate(cond_fn(list(p)), "while_loop", where)], parts,
              "while_cond", 1, model_of(parts))
    kind, value, index = c.elems[0][1][0]
    if kind == "static":
        raise SporelingError("the loop condition is not a tensor or a Python bool",
                             op="while_loop", got=repr(value), where=where)
    cond_graph = c.graph
    if kind == "weak":
        cond_graph.outputs[index] = Const(np.asarray(bool(value)))
    carried = [leaf for leaf in flatten(list(parts))[0] if is_array(leaf)]
    out = while_p.bind(*bind_operands([*carried, *c.captured, *body.captured]),
                       cond_graph=cond_graph, body_graph=body.graph)
    return _assemble(plan, _rewrap(out, model_of(parts)))


def _assemble(plan, results) -> list:
    it = iter(results)
    return [unflatten(tree, [next(it) if k == "out" else v for k, v in leaves])
            for tree, leaves in plan]


def scan(f: Callable, init, xs=None, length: int | None = None, reverse: bool = False):
    """``(final_carry, stacked_ys)`` of ``carry, y = f(carry, x)`` over the leading axis of
    ``xs`` (a pytree; None with ``length`` for a loop without inputs)."""
    check_callable("scan", "f", f)
    if length is not None:
        length = check_int(length, "length", op="scan", min=0)

    def body(parts, x):
        carry, y = f(parts[0], x)
        return [carry], y
    (carry,), ys = scan_core(body, [init], xs, length=length, reverse=reverse)
    return carry, ys


def scan_core(body_fn, parts: list, xs, *, length=None, reverse=False, names=None,
              zero_ok=frozenset(), where=None, op="scan"):
    """``scan`` over a list of carry parts; ``body_fn(parts, x) -> (parts, y)``; ``op``
    names the public op in errors about the carry."""
    where = where or user_source()
    names = names or ["the carry"]
    x_leaves, x_tree = flatten(xs)
    x_arrays = [leaf for leaf in x_leaves if is_array(leaf)]
    lengths = {int(a.shape[0]) for a in x_arrays if len(a.shape) >= 1}
    if any(len(a.shape) == 0 for a in x_arrays) or len(lengths) > 1 or (
            length is not None and lengths and lengths != {length}):
        raise ShapeError("xs must share their leading axis (the scan length)", op="scan",
                         expected=f"leading axis {length if length is not None else 'n'}",
                         got=[tuple(a.shape) for a in x_arrays], where=where)
    if length is None and not lengths:
        raise ShapeError("scan without xs needs length", op="scan", expected="length=int",
                         got="xs=None and length=None", where=where)
    length = int(length if length is not None else lengths.pop())
    slices = unflatten(x_tree, [_Slice(a) if is_array(a) else a for a in x_leaves])
    body, parts, plan = loop_carry(lambda *p: _scan_step(body_fn, p), parts, [slices],
                                   names, zero_ok, op, where)
    carried = [leaf for leaf in flatten(list(parts))[0] if is_array(leaf)]
    out = scan_p.bind(*bind_operands([*carried, *x_arrays, *body.captured]),
                      body_graph=body.graph,
                      n_carry=len(carried), n_xs=len(x_arrays), length=length,
                      reverse=bool(reverse))
    like = model_of(parts, xs)
    out = _rewrap(out, like)
    carry = _assemble(plan, out[:len(carried)])
    y_tree, y_leaves = body.elems[-1]
    ys, k = [], len(carried)
    for leaf in y_leaves:
        if leaf.kind == "static":
            ys.append(leaf.value)
        else:
            ys.append(out[k])
            k += 1
    return carry, unflatten(y_tree, ys)


def _scan_step(body_fn, p):
    parts, y = body_fn(list(p[:-1]), p[-1])
    return list(parts) + [y]


class _Slice:
    """One row of an ``xs`` array; traced as that, seen by the body like the array."""
    __slots__ = ("shape", "dtype", "like")

    def __init__(self, array):
        self.shape, self.dtype, self.like = tuple(array.shape[1:]), np.dtype(array.dtype), array


def fori_loop(lower, upper, body_fn: Callable, init_val):
    """``val = body_fn(i, val)`` for ``i`` in ``range(lower, upper)``: a ``scan`` when the
    bounds are static (Python ints or concrete arrays; reverse-differentiable in every
    mode), else a ``while_loop``."""
    check_callable("fori_loop", "body_fn", body_fn)
    # known bounds must fit the int64 index (not NumPy's OverflowError)
    lo, hi = [None if n is None else check_int(n, name, op="fori_loop", min=-2 ** 63,
                                               max=2 ** 63 - 1)
              for n, name in ((static_int(lower), "lower"), (static_int(upper), "upper"))]
    if lo is not None and hi is not None:
        # the index is a carry (as in JAX's fori_loop), not an array of every index: a far
        # bound (fori_loop(-2**31, 2, ...)) allocates nothing before the body is checked

        def step(parts, _):
            from .elementwise import add
            return [add(parts[0], np.int64(1)), body_fn(parts[0], parts[1])], None
        (_, carry), _ = scan_core(step, [np.asarray(lo, np.int64), init_val], None,
                                  length=max(0, hi - lo), names=["the loop index", "init_val"],
                                  op="fori_loop")
        return carry

    def cond_fn(parts):
        from .comparison import less
        return less(parts[0], upper)

    def body(parts):
        from .elementwise import add
        return [add(parts[0], np.int64(1)), body_fn(parts[0], parts[1])]
    start = np.asarray(lower, np.int64) if lo is not None else lower
    return while_core(cond_fn, body, [start, init_val],
                      names=["the loop index", "init_val"])[1]


from . import _control_batching, _control_check, _control_grad  # noqa: E402,F401  (check; rules)
