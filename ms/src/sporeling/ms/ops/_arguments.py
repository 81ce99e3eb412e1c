"""The net under ``ms.ops``'s argument checks: a raw builtin or NumPy error (``int("a")``,
``None.shape``, NumPy's "array is too big"...) escaping a functional op becomes an
:class:`~sporeling.core.errors.ArgumentError` naming the op and the arguments it got,
chained to the original (a MemoryError: an ``OutOfMemoryError``). Errors raised on purpose
(SporelingErrors) pass through, and so does anything raised while an op was given a
function to run (a user's ``fn`` may raise what it likes).
"""
from __future__ import annotations

import functools
import inspect

from sporeling.compiler.core import locate
from sporeling.compiler.ops._util import is_array
from sporeling.core.arguments import bad_arguments, is_raw_error

__all__ = ["checked", "check_all"]


def _runs_user_code(args: tuple, kwargs: dict) -> bool:
    return any(callable(a) and not is_array(a) for a in (*args, *kwargs.values()))


def checked(fn):
    """``fn`` with raw errors translated as the module says."""
    @functools.wraps(fn)
    def op(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except Exception as exc:
            if not is_raw_error(exc) or _runs_user_code(args, kwargs):
                raise
            raise locate(bad_arguments(fn.__name__, args, kwargs, exc)) from exc
    return op


def check_all(namespace: dict, names) -> None:
    """Replace the plain functions among ``namespace[name]`` by :func:`checked` ones."""
    for name in names:
        fn = namespace[name]
        if inspect.isfunction(fn):
            namespace[name] = checked(fn)
