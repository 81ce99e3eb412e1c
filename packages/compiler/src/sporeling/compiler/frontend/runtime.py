"""The helpers converted code calls (as ``_sp.*``): each decides *at trace time*.

A condition that is a Python value (or a concrete array) runs plain Python -- the graph is
specialised, nothing of the ``if`` reaches it. A traced condition becomes ``cond`` /
``while_loop`` / ``scan`` over the statement's variables (its *state*).

``for`` over a Python ``range`` unrolls up to :data:`UNROLL_LIMIT` iterations; a longer one
whose state holds traced tensors becomes a ``scan`` with a traced index (unrolled after all
if the body needs the index as a Python int). ``for`` over a traced tensor scans its first
axis; ``range`` with traced bounds becomes a ``while_loop``.
"""
from __future__ import annotations

import sys

import numpy as np

from sporeling.core import SporelingError, get_context

from ..ir.pytree import flatten
from ..ir.trace import user_source
from ..ops._control_loops import concrete
from ..ops._control_trace import Undefined, is_array, unwrap, wrap_like
from ..ops.control import cond_core, scan_core, while_core
from .checks import GraphSyntaxError, checked, marked, python_only, raise_, traced_body

__all__ = ["GraphSyntaxError", "is_traced", "UNROLL_LIMIT", "add_outside_state", "if_stmt",
           "while_stmt", "for_stmt", "range_", "and_", "or_", "not_", "not_any", "ifexp",
           "call", "ld", "undefined", "result", "python_test", "raise_", "checked",
           "python_only", "marked", "print_"]

UNROLL_LIMIT = 64
"""Python ``range`` loops longer than this become a ``scan`` when their state is traced."""


def is_traced(x) -> bool:
    """Whether ``x`` is a tensor being traced (no data yet: its truth value is unknown)."""
    return is_array(x) and concrete(x) is None


def _decide(pred):
    """``(True, pred)`` for a traced condition, else ``(False, its Python truth)``."""
    if is_array(pred) and not isinstance(pred, np.generic):
        value = concrete(pred)
        if value is None:
            return True, pred
        return False, bool(value)
    return False, bool(pred)


def _reject(unsupported) -> None:
    if unsupported:
        construct, where = unsupported
        raise GraphSyntaxError(f"{construct} is not supported under a tensor-dependent "
                               "condition", op="Graph mode", where=where,
                               hint="make the condition a Python value, or move the "
                                    "construct out of the tensor-dependent block") from None


def python_test(pred, construct: str, where: str):
    """The truth of ``pred`` for a statement kept as Python; an error if it is traced."""
    traced, value = _decide(pred)
    if traced:
        _reject((construct, where))
    return value


def ld(getter, name: str):
    """A variable's current value, or :class:`Undefined` if it has none yet."""
    try:
        return getter()
    except NameError:
        return Undefined(name)


def undefined(name: str) -> Undefined:
    return Undefined(name)


def result(value):
    """The function's return value (``None`` when it ran off its end)."""
    return None if isinstance(value, Undefined) else value


_OUTSIDE: list = []  # providers of state outside the variables: see add_outside_state


def add_outside_state(provider) -> None:
    """Register state a tensor-dependent ``if`` threads through its branches besides the
    statement's variables: ``provider()`` returns None or a dict (key -> traced value) that
    code in a branch may rebind -- the expression layer's Parameters, lifted by a Graph-mode
    trace (an optimizer's update under ``if is_finite:``)."""
    if provider not in _OUTSIDE:
        _OUTSIDE.append(provider)


def if_stmt(pred, true_fn, false_fn, state: tuple, names: tuple, zero_ok=()):
    traced, value = _decide(pred)
    if not traced:
        return tuple((true_fn if value else false_fn)(*state))
    where = user_source()
    outside = next((d for d in (p() for p in _OUTSIDE) if d is not None), None)
    with traced_body():
        if outside is None:
            return cond_core(pred, true_fn, false_fn, list(state), names=list(names),
                             zero_ok=frozenset(zero_ok), where=where)
        # each branch starts from the outside state before the statement; a branch that
        # rebinds some of it has the statement traced again with those as extra variables
        # (the first cond is then dead code)
        before, written = dict(outside), set()

        def watched(fn):
            def run(*parts):
                outside.update(before)
                out = fn(*parts)
                written.update(k for k, v in before.items() if outside.get(k) is not v)
                return out
            return run
        result = cond_core(pred, watched(true_fn), watched(false_fn), list(state),
                           names=list(names), zero_ok=frozenset(zero_ok), where=where)
        outside.update(before)
        if not written:
            return result
        return _threaded(pred, true_fn, false_fn, state, names, zero_ok, where, outside,
                         sorted(written, key=list(before).index))


def _threaded(pred, true_fn, false_fn, state, names, zero_ok, where, outside, written):
    """``if`` whose branches rebind the ``written`` keys of ``outside``: they enter each
    branch as variables and leave it as results, the untaken branch's unchanged."""
    count = len(state)

    def branch(fn):
        def run(*parts):
            outside.update(zip(written, parts[count:]))
            return tuple(fn(*parts[:count])) + tuple(outside[k] for k in written)
        return run
    out = cond_core(pred, branch(true_fn), branch(false_fn),
                    list(state) + [outside[k] for k in written],
                    names=list(names) + ["a Parameter the branch writes"] * len(written),
                    zero_ok=frozenset(zero_ok), where=where)
    outside.update(zip(written, out[count:]))
    return tuple(out[:count])


def while_stmt(test_fn, body_fn, state: tuple, names: tuple, zero_ok=()):
    state = tuple(state)
    while True:
        traced, value = _decide(test_fn(*state))
        if traced:
            break
        if not value:
            return state
        state = tuple(body_fn(*state))
    where = user_source()
    with traced_body():
        return tuple(while_core(lambda parts: test_fn(*parts),
                                lambda parts: list(body_fn(*parts)), list(state),
                                names=list(names), zero_ok=frozenset(zero_ok), where=where))


class TracedRange:
    """``range`` with a traced bound: iterated by a ``while_loop``."""

    def __init__(self, start, stop, step):
        self.start, self.stop, self.step = start, stop, step


def range_(*args):
    """``range(*args)``, or a :class:`TracedRange` when a bound is traced."""
    if not any(is_traced(a) for a in args):
        return range(*(int(concrete(a)) if is_array(a) else a for a in args))
    start, stop, step = (0, args[0], 1) if len(args) == 1 else (tuple(args) + (1,))[:3]
    if is_traced(step):
        raise GraphSyntaxError("a range with a traced step", op="Graph mode",
                               where=user_source(), hint="make the step a Python int")
    return TracedRange(start, stop, int(concrete(step)) if is_array(step) else step)


def for_stmt(iterable, body_fn, state: tuple, names: tuple, zero_ok=(), stop=None):
    state = tuple(state)
    where = user_source()
    names, zero_ok = list(names), frozenset(zero_ok)
    if isinstance(iterable, TracedRange):
        with traced_body():
            return _traced_range(iterable, body_fn, state, names, zero_ok, where)
    if is_traced(iterable):
        with traced_body():
            parts, _ = scan_core(lambda parts, x: (list(body_fn(*parts, x)), None),
                                 list(state), iterable, names=names, zero_ok=zero_ok,
                                 where=where)
        return tuple(parts)
    if isinstance(iterable, range) and len(iterable) > UNROLL_LIMIT and \
            any(is_traced(leaf) for leaf in flatten(list(state))[0]):
        index = np.arange(iterable.start, iterable.stop, iterable.step, dtype=np.int64)
        like = next(leaf for leaf in flatten(list(state))[0] if is_traced(leaf))
        try:
            with traced_body():
                parts, _ = scan_core(lambda parts, i: (list(body_fn(*parts,
                                                                    wrap_like(like, i))),
                                                       None),
                                     list(state), index, names=names, zero_ok=zero_ok,
                                     where=where)
            return tuple(parts)
        except (SporelingError, TypeError, IndexError):
            pass  # the body needs a Python index: unroll
    for item in iterable:
        if stop is not None:
            traced, value = _decide(stop(*state))
            if not traced and not value:
                break
        state = tuple(body_fn(*state, item))
    return state


def _traced_range(r: TracedRange, body_fn, state, names, zero_ok, where):
    from ..ops import add, greater, less
    compare = less if r.step > 0 else greater
    parts = [unwrap(r.start) if is_array(r.start) else np.int64(r.start)] + list(state)
    stop = unwrap(r.stop)
    out = while_core(lambda p: compare(p[0], stop),
                     lambda p: [add(p[0], np.int64(r.step))] + list(
                         body_fn(*p[1:], wrap_like(r.stop, p[0]))),
                     parts, names=["the loop index"] + names, zero_ok=zero_ok, where=where)
    return tuple(out[1:])


# -- expressions ----------------------------------------------------------------------------

def _as_bool(x):
    from ..ops import not_equal
    x = unwrap(x)
    return x if np.dtype(x.dtype) == np.bool_ else not_equal(x, 0)


def and_(*thunks):
    """``a and b and ...`` with Python semantics for Python values, ``logical_and`` once a
    value is traced."""
    from ..ops import logical_and
    value = thunks[0]()
    for thunk in thunks[1:]:
        traced, truth = _decide(value)
        if not traced:
            if not truth:
                return value
            value = thunk()
        else:
            value = wrap_like(value, logical_and(_as_bool(value), _as_bool(_tensor(thunk()))))
    return value


def or_(*thunks):
    from ..ops import logical_or
    value = thunks[0]()
    for thunk in thunks[1:]:
        traced, truth = _decide(value)
        if not traced:
            if truth:
                return value
            value = thunk()
        else:
            value = wrap_like(value, logical_or(_as_bool(value), _as_bool(_tensor(thunk()))))
    return value


def _tensor(x):
    return x if is_array(x) else np.asarray(bool(x))


def not_(x):
    traced, truth = _decide(x)
    if not traced:
        return not truth
    from ..ops import logical_not
    return wrap_like(x, logical_not(_as_bool(x)))


def not_any(*flags):
    """``not (f1 or f2 ...)`` for the flags of ``break``/``continue``/``return``."""
    return not_(or_(*(lambda f=f: f for f in flags)))


def ifexp(test, body, orelse):
    traced, truth = _decide(test)
    if not traced:
        return body() if truth else orelse()
    where = user_source()
    with traced_body():
        return cond_core(test, body, orelse, [], where=where)


# -- calls ----------------------------------------------------------------------------------

def print_(fn, *args, **kwargs):
    """``print(*args)``: when ``fn`` is the built-in and an argument is traced, a
    ``debug_print`` that prints the values each time the graph runs (see
    :mod:`sporeling.compiler.ops.debug`); otherwise the call itself, now."""
    import builtins
    if fn is builtins.print and any(is_traced(a) for a in args):
        from ..ops.debug import debug_print
        return debug_print(*args, **kwargs)
    return fn(*args, **kwargs)


_DEPTH = [0]


def call(fn, *args, **kwargs):
    """Call ``fn``, converted first when it is user code (cached)."""
    from .ast_convert import convert
    target = convert(fn)
    if target is fn:
        return fn(*args, **kwargs)
    limit = get_context("max_call_depth")
    if _DEPTH[0] >= limit:
        _too_deep(fn, limit)
    _DEPTH[0] += 1
    try:
        return target(*args, **kwargs)
    except RecursionError:
        _too_deep(fn, limit)
    finally:
        _DEPTH[0] -= 1


def _too_deep(fn, limit):
    code = getattr(fn, "__code__", None) or fn.__func__.__code__
    frame = sys._getframe(2)
    raise GraphSyntaxError(
        f"converted calls of {fn.__name__!r} nest too deeply (recursion whose end depends on "
        "a tensor cannot be traced)", op="Graph mode",
        expected=f"at most max_call_depth={limit} nested calls (and Python's recursion limit)",
        where=f"{code.co_filename}:{code.co_firstlineno}",
        hint=f"called from {frame.f_code.co_filename}:{frame.f_lineno}; make the recursion "
             "end on a Python value") from None
