"""Statements with effects inside tensor-dependent code: what converted code calls for them.

While a tensor-dependent branch or loop body is traced (:func:`traced_body`), its Python
statements run once, on every path, whatever the condition will be at run time. So:

* ``raise`` (and ``assert``, rewritten to ``if not c: raise AssertionError``) becomes an
  error code: :func:`raise_` records the exception and returns its code, the flags pass
  skips the rest of the function, and :func:`checked` passes the result through the
  ``check`` primitive, which raises the user's exception when the graph runs and the code
  is set. Outside traced bodies :func:`raise_` raises at once, as Python does.
* statements whose effect escapes the trace (``print``, writes to attributes and items)
  are guarded by :func:`python_only`: an error naming the user's line when reached inside
  a traced body, plain Python elsewhere.
"""
from __future__ import annotations

import contextlib
import threading

import numpy as np

from sporeling.core import SporelingError

from ..ir.pytree import flatten, unflatten
from ..ops._control_check import check
from ..ops._control_trace import bind_operands, is_array, model_of, wrap_like

__all__ = ["GraphSyntaxError", "traced_body", "in_traced_body", "raise_", "checked",
           "python_only", "marked"]


class GraphSyntaxError(SporelingError, SyntaxError):
    """Python syntax the Graph-mode conversion cannot express under a tensor condition."""


class _Depth(threading.local):
    value = 0


_DEPTH = _Depth()


@contextlib.contextmanager
def traced_body():
    """The code run inside is traced as a branch or loop body (not run per condition)."""
    _DEPTH.value += 1
    try:
        yield
    except Exception as exc:
        where = getattr(exc, "_sporeling_raised_at", None)
        if where is None:
            raise
        raise GraphSyntaxError(
            "a `raise` inside `try`/`with` that no handler there catches, under a "
            "tensor-dependent condition", op="Graph mode", got=repr(exc), where=where,
            hint="it would raise on every path while the graph is built: catch it inside "
                 "the `try`, or raise outside the `try` (a run-time check)") from exc
    finally:
        _DEPTH.value -= 1


def marked(exc, where: str):
    """``exc`` (raised inside ``try``/``with``) marked with its line, for
    :func:`traced_body` to refuse it if it escapes a traced body."""
    if in_traced_body():
        if isinstance(exc, type):
            exc = exc()
        try:
            exc._sporeling_raised_at = where
        except AttributeError:  # an exception type with __slots__: left unmarked
            pass
    return exc


def in_traced_body() -> bool:
    return _DEPTH.value > 0


def raise_(code: int, make, where: str, table: dict, source: str, cause=None) -> int:
    """``raise make() [from cause()]``, or -- inside a traced body -- its error code for
    :func:`checked`."""
    if not in_traced_body():
        if cause is None:
            raise make()
        raise make() from cause()
    try:
        exc = make()
    except SporelingError as err:
        raise GraphSyntaxError(
            "the exception raised under a tensor-dependent condition is built from tensor "
            "data", op="Graph mode", got=f"raise {source}", where=where,
            hint="build its message from Python values (shapes, constants): tensors have "
                 f"no data while the graph is traced ({err.detail})") from None
    if isinstance(exc, type):
        exc = exc()
    if not isinstance(exc, BaseException):
        raise GraphSyntaxError("exceptions must derive from BaseException", op="Graph mode",
                               got=f"raise {source}", where=where)
    table[code] = (exc, where)
    return code


def checked(code, table: dict, value):
    """``value`` (the function's result) through a ``check`` of ``code``."""
    if not is_array(code) and not code:
        return value
    leaves, tree = flatten(value)
    slots = [i for i, leaf in enumerate(leaves) if is_array(leaf)]
    errors = tuple(sorted(((k, exc, where) for k, (exc, where) in table.items()),
                          key=lambda e: e[0]))
    if not slots and not is_array(code):
        # raised under Python conditions of this function (inside an outer traced body):
        # with no tensor to check, the user's error is raised now, while compiling
        exc, where = table[code]
        exc.add_note(f"raised at {where} while compiling (Graph mode): the function returns "
                     "no tensor to check at run time")
        raise exc
    if not slots:
        where = errors[0][2] if errors else None
        raise GraphSyntaxError(
            "a `raise` under a tensor-dependent condition in a function that returns no "
            "tensor", op="Graph mode", where=where,
            hint="return a tensor from this function (the check runs on its result), or "
                 "make the condition a Python value")
    model = model_of([leaves[i] for i in slots])
    # a Python code: raised under Python conditions inside an outer traced body, so it
    # raises whenever that body runs
    operands = bind_operands([code if is_array(code) else np.int64(code)] +
                             [leaves[i] for i in slots])
    out = check(operands[0], errors, operands[1:])
    for i, o in zip(slots, out):
        leaves[i] = wrap_like(model, o)
    return unflatten(tree, leaves)


def python_only(construct: str, where: str) -> None:
    """An error when ``construct`` at ``where`` is reached while tracing a tensor-dependent
    branch or loop body (its effect would happen once, on every path, at compile time)."""
    if in_traced_body():
        raise GraphSyntaxError(
            f"{construct} is not supported in a tensor-dependent branch or loop body",
            op="Graph mode", where=where,
            hint="it would run once, on every path, while the graph is built: return the "
                 "value instead (or use ops.where), or make the condition a Python value")
