"""``check``: a ``raise`` that depends on a tensor, as a primitive that raises when it runs.

Graph mode cannot raise while tracing a branch (both branches are traced). The AST pass
turns ``raise E(...)`` under a tensor condition into an error code (0: none) carried like
any variable, and the converted function returns its result through ``check``: an identity
on the result's tensors that raises the user's exception when the code is not 0. Being the
producer of the result, it survives dead-code elimination; being an identity, gradients
pass through it.

    >>> import numpy as np
    >>> ok = check(np.int64(0), ((1, ValueError("x"), "f.py:3"),), [np.ones(2)])
    >>> ok[0]
    array([1., 1.])
    >>> check(np.int64(1), ((1, ValueError("too big"), "f.py:3"),), [np.ones(2)])
    Traceback (most recent call last):
    ...
    ValueError: too big
    raised under a tensor-dependent condition at f.py:3 (Graph mode checks it when the graph runs)
"""
from __future__ import annotations

import copy

import numpy as np

from sporeling.core import DTypeError, ShapeError

from ..core import Primitive, def_backward

__all__ = ["check", "check_p", "raised_by_check"]

check_p = Primitive("check", multiple_results=True,
                    doc="the operands after the error code, unchanged; raises the error "
                        "registered for a non-zero code")


@check_p.def_abstract_eval
def _check_abstract(code, *xs, errors):
    if tuple(code.shape) != () or np.dtype(code.dtype).kind not in "iub":
        raise (ShapeError if tuple(code.shape) != () else DTypeError)(
            "the error code must be an integer scalar", op="check", expected="int64[]",
            got=f"{np.dtype(code.dtype)}{list(code.shape)}")
    return tuple(xs)


@check_p.def_impl
def _check_impl(code, *xs, errors):
    value = int(np.asarray(code))
    if value:
        for k, exc, where in errors:
            if k == value:
                raise _fresh(exc, where)
    return tuple(xs)


@def_backward(check_p, uses=())
def _check_bwd(ct, code, *xs, out, errors):
    return (None,) + tuple(ct)


def _fresh(exc: BaseException, where: str) -> BaseException:
    """A new instance of the user's exception (the registered one is a template shared by
    every run), noting where it was raised."""
    try:
        new = copy.copy(exc)
    except Exception:  # an exception class that cannot be rebuilt from its args
        new = exc
    new.__notes__ = [n for n in getattr(exc, "__notes__", [])
                     if not n.startswith("raised under")] + [
        f"raised under a tensor-dependent condition at {where} (Graph mode checks it when "
        "the graph runs)"]
    new._sporeling_check = True
    return new


def raised_by_check(exc: BaseException) -> BaseException | None:
    """The user's exception a ``check`` raised, if ``exc`` is (or wraps) one: the runtime
    wraps kernel errors in its own, which the caller should not see here."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if getattr(exc, "_sporeling_check", False):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None


def check(code, errors: tuple, xs: list) -> tuple:
    """``xs`` unchanged, after raising ``errors``' exception for a non-zero ``code``.
    ``errors``: ``((code, exception, "file:line"), ...)``."""
    return check_p.bind(code, *xs, errors=tuple(errors))
