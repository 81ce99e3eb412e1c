"""Tracing the Python callables of control-flow ops into sub-graphs.

A callable's arguments and results are pytrees whose leaves are of three kinds:

* arrays (anything with ``shape`` and ``dtype``: arrays, Tensors, tracers) -- graph inputs
  and outputs;
* *weak* numbers (Python ``bool``/``int``/``float``) -- constants that take the dtype and
  shape of the value they are merged with (``y = 0.0`` in one branch, a float32[3] in the
  other; a ``flag = True`` that becomes a tensor once set in a tensor branch);
* static values (None, strings, modules, :class:`Undefined`...) -- passed through as they
  are, and required to be equal wherever two of them meet.

:func:`trace` records one callable; the ops merge two traces (``cond``) or a trace with the
carry it started from (loops) leaf by leaf, with errors that name the leaf (a variable of
the user's code when the AST pass gives names), both types and the user's line.
"""
from __future__ import annotations

from typing import Callable, NamedTuple

import numpy as np

from sporeling.core import ArgumentError, DTypeError, ShapeError

from ..core import Aval
from ..core.aval import aval_of
from ..ir.graph import Const, Graph, Var
from ..ir.pytree import flatten, unflatten
from ..ir.trace import make_graph

__all__ = ["Undefined", "Traced", "trace", "is_array", "is_weak", "leaf_paths",
           "register_wrapper", "wrap_like", "model_of", "unwrap", "unwrap_all",
           "bind_operands", "closed_graph", "type_error", "weak_array", "weak_const"]

_WEAK = (bool, int, float)


class Undefined:
    """The value of a variable not (yet) assigned on some path of the user's code."""
    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"<undefined {self.name}>"


def is_array(x) -> bool:
    return hasattr(x, "shape") and hasattr(x, "dtype") and not isinstance(x, Undefined)


def is_weak(x) -> bool:
    return type(x) in _WEAK


# -- Tensor-like wrapper types (the expression package's Tensor) ---------------------------

_WRAPPERS: dict[type, tuple[Callable, Callable]] = {}


def register_wrapper(cls: type, wrap: Callable, unwrap: Callable,
                     recorded: Callable | None = None) -> None:
    """Make control-flow callables see values of type ``cls`` for operands of that type:
    ``wrap(inner)`` builds one around a tracer, ``unwrap(value)`` gives the inner value,
    ``recorded(value)`` says whether a gradient tape is watching it."""
    _WRAPPERS[cls] = (wrap, unwrap, recorded or (lambda value: False))


def wrap_like(model, inner):
    model = getattr(model, "like", model)  # a scan's row stands for its array
    hit = _WRAPPERS.get(type(model)) if _WRAPPERS else None
    if hit is None or type(inner) in _WRAPPERS:  # already wrapped (bound on wrappers)
        return inner
    return hit[0](inner)


def model_of(*trees):
    """The value whose type results should take: the first leaf of ``trees`` that is a
    registered wrapper (a Tensor), else the first array, else None. A loop counter that
    became an array then looks like the loop's tensors in the body *and* the condition."""
    first = None
    for tree in trees:
        for leaf in flatten(tree)[0]:
            if not is_array(leaf):
                continue
            if _WRAPPERS and type(getattr(leaf, "like", leaf)) in _WRAPPERS:
                return getattr(leaf, "like", leaf)
            first = leaf if first is None else first
    return first


def unwrap(value):
    """The value to bind for ``value``: a registered wrapper around a traced value gives
    that value; one around concrete data (a PyNative Tensor) stays itself, so that binding
    it keeps its meaning (recording for ``grad``)."""
    hit = _WRAPPERS.get(type(value)) if _WRAPPERS else None
    if hit is None:
        return value
    inner = hit[1](value)
    return inner if getattr(inner, "_interpreter", None) is not None else value


def bind_operands(values: list) -> list:
    """The operands to bind a control-flow primitive on. When a gradient tape watches one
    of them (a PyNative ``grad`` recording while a graph is traced), every traced operand is
    wrapped, so the primitive goes through the tape's interpreter and is recorded; otherwise
    traced wrappers are unwrapped, so the trace records the primitive directly."""
    if _WRAPPERS:
        wrappers = tuple(_WRAPPERS)
        for value in values:
            if isinstance(value, wrappers):  # subclasses too (a Parameter is a Tensor)
                hit = _registration(value)
                if hit[2](value):
                    return [v if isinstance(v, wrappers) or getattr(v, "_interpreter", None)
                            is None else hit[0](v) for v in values]
    return [unwrap(v) for v in values]


def _registration(value):
    for cls in type(value).__mro__:
        if cls in _WRAPPERS:
            return _WRAPPERS[cls]
    return None


def unwrap_all(value):
    """The inner value of a registered wrapper, traced or not."""
    hit = _WRAPPERS.get(type(value)) if _WRAPPERS else None
    return value if hit is None else hit[1](value)


# -- tracing ------------------------------------------------------------------------------

class Leaf(NamedTuple):
    kind: str        # "array", "weak" or "static"
    value: object    # the weak or static value
    index: int       # position among the graph's outputs (arrays and weak numbers)


class Traced(NamedTuple):
    graph: Graph            # inputs: the array leaves of the arguments, then captured values
    captured: list          # outer values the callable closed over (trailing operands)
    elems: list             # per result element: (tree, [Leaf])


def trace(fn: Callable, args: list, name: str, n_elems: int | None = None,
          like=None) -> Traced:
    """Trace ``fn(*args)``; array leaves of ``args`` become graph inputs, the others are
    passed as they are. With ``n_elems`` the result is a sequence of that many elements,
    each flattened on its own (the AST pass's state variables); else it is one element.
    Plain-array arguments are seen wrapped like ``like`` (a loop counter that became a
    tensor looks like the loop's other tensors)."""
    leaves, tree = flatten(list(args))
    dyn = [i for i, leaf in enumerate(leaves) if is_array(leaf)]
    elems: list = []

    def wrapped(*xs):
        full = list(leaves)
        for i, x in zip(dyn, xs):
            model = leaves[i]
            if like is not None and type(getattr(model, "like", model)) not in _WRAPPERS:
                model = like
            full[i] = wrap_like(model, x)
        out = fn(*unflatten(tree, full))
        parts = [out] if n_elems is None else list(out)
        own = xs[0]._interpreter if xs else None
        arrays: list = []
        for part in parts:
            part_leaves, part_tree = flatten(part)
            kinds = []
            for leaf in part_leaves:
                if is_array(leaf):
                    kinds.append(Leaf("array", None, len(arrays)))
                    arrays.append(_output(leaf, own))
                elif is_weak(leaf):
                    kinds.append(Leaf("weak", leaf, len(arrays)))
                    arrays.append(np.asarray(leaf))
                else:
                    kinds.append(Leaf("static", leaf, -1))
            elems.append((part_tree, kinds))
        return arrays

    # fresh_seeds=False: random ops in the callable draw their seed in the enclosing scope
    # and the sub-graph captures it, so re-running the body (the backward rules do) sees
    # the same seeds as the forward
    graph = make_graph(wrapped, *[aval_of(leaves[i]) for i in dyn], name=name,
                       fresh_seeds=False)
    return Traced(graph, list(graph.meta["captured"]), elems)


def _output(leaf, own):
    """What a callable's result leaf becomes in its graph. A value of an enclosing scope
    that a gradient tape records (a branch returning an outer Tensor as it is) stays
    wrapped: the graph captures the Tensor, so the control-flow primitive is bound on it
    and recorded -- unwrapped, its gradient would be lost."""
    inner = unwrap(leaf)
    interp = getattr(inner, "_interpreter", None)
    if inner is leaf or interp is None or interp is own:
        return inner
    hit = _registration(leaf) if _WRAPPERS else None
    return leaf if hit is not None and hit[2](leaf) else inner


def leaf_paths(tree, label: str) -> list[str]:
    """A readable name per leaf of ``tree`` (``state[1]``, ``carry['h']``...)."""
    out: list[str] = []

    def walk(node, path):
        if node is None:
            out.append(path)
        elif node[0] is dict:
            for k, child in zip(node[1], node[2]):
                walk(child, f"{path}[{k!r}]")
        else:
            for i, child in enumerate(node[1]):
                walk(child, f"{path}[{i}]")

    walk(tree, label)
    return out


def type_error(what: str, left: tuple[str, object], right: tuple[str, object], op: str,
               where: str | None):
    """A ShapeError (shapes differ) or DTypeError (dtypes differ) naming both sides."""
    (ln, la), (rn, ra) = left, right
    got = f"{ln} {_text(la)} but {rn} {_text(ra)}"
    if is_array(la) and is_array(ra) and tuple(la.shape) != tuple(ra.shape):
        return ShapeError(f"{what} has different shapes", op=op, expected="equal shapes",
                          got=got, where=where)
    if is_array(la) and is_array(ra):
        return DTypeError(f"{what} has different dtypes", op=op, expected="equal dtypes",
                          got=got, where=where,
                          hint="cast one side (ops.cast) so that both have the same dtype")
    return ShapeError(f"{what} differs", op=op, expected="the same kind of value on both "
                      "sides (tensors, or equal Python values)", got=got, where=where)


def _text(value) -> str:
    if isinstance(value, Undefined):
        return "undefined"
    if is_array(value):
        return f"{np.dtype(value.dtype)}{list(value.shape)}"
    return f"the Python value {value!r}"


def weak_array(value, shape, dtype, what: str, op: str, where=None) -> np.ndarray:
    """A weak number as an array of ``dtype`` and ``shape``; one the dtype cannot hold (a
    Python int past 64 bits, 2**63 as int64, -1 as uint8) is an ArgumentError naming
    ``what``, not NumPy's OverflowError."""
    dtype = np.dtype(dtype)
    try:
        return np.full(tuple(shape), value, dtype)
    except OverflowError:
        raise ArgumentError(f"{what} does not fit its dtype", op=op,
                            expected=f"a value {dtype} holds", got=repr(value),
                            where=where) from None


def weak_const(value, aval, what: str, op: str, where=None) -> Const:
    """A weak number as a constant of ``aval``'s dtype and shape (see :func:`weak_array`)."""
    return Const(weak_array(value, aval.shape, aval.dtype, what, op, where))


def closed_graph(traced: Traced, outputs: list, extra_before: list, extra_after: list,
                 n_args: int) -> Graph:
    """``traced.graph`` with fresh unused inputs for other callables' captured values placed
    around its own (so that several sub-graphs take one operand list) and new outputs."""
    g = traced.graph
    before = [Var(Aval(tuple(a.shape), np.dtype(a.dtype))) for a in extra_before]
    after = [Var(Aval(tuple(a.shape), np.dtype(a.dtype))) for a in extra_after]
    inputs = g.inputs[:n_args] + before + g.inputs[n_args:] + after
    return Graph(inputs, g.equations, list(outputs), g.name, {})
