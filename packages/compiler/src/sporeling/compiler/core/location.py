"""Where the user is: the innermost frame outside Sporeling, for errors and the IR.

Looked up only when it is needed -- while tracing (each equation records its line) and when
an error is raised -- never on the eager hot path. :func:`locate` gives a
:class:`~sporeling.core.SporelingError` without a location the user's
``file:line in function``, keeping its type.

    >>> import sys
    >>> def construct():
    ...     return describe(sys._getframe())
    >>> construct().endswith(":2 in construct")
    True
"""
from __future__ import annotations

import re
import sys

from sporeling.core import SporelingError

__all__ = ["is_library_frame", "user_frame", "describe", "user_location", "locate",
           "user_source_of", "with_function"]

# nested functions the AST front end generates (branches, loop bodies, thunks) report the
# function the user wrote
_GENERATED = re.compile(r"(\.<locals>\.(_sp_\w+|<lambda>))+$")


def is_library_frame(frame) -> bool:
    return frame.f_globals.get("__name__", "").startswith("sporeling.")


def user_frame(frame=None):
    """The innermost frame outside Sporeling's modules, from ``frame`` (default: the
    caller's) outwards; None if there is none."""
    frame = sys._getframe(1) if frame is None else frame
    while frame is not None and is_library_frame(frame):
        frame = frame.f_back
    return frame


def describe(frame, lineno: int | None = None) -> str:
    """``file:line in Qualified.name`` of ``frame``."""
    code = frame.f_code
    name = _GENERATED.sub("", getattr(code, "co_qualname", code.co_name))
    line = frame.f_lineno if lineno is None else lineno
    return f"{code.co_filename}:{line} in {name}"


def user_location(frame=None) -> str | None:
    """:func:`describe` of :func:`user_frame` (from the caller's frame by default)."""
    found = user_frame(sys._getframe(1) if frame is None else frame)
    return None if found is None else describe(found)


_FUNCTION_AT: dict[str, str] = {}  # "file:line" an equation records -> "... in function"


def user_source_of(frame) -> str:
    """``file:line`` of ``frame`` (what an IR equation records), remembering its function
    for :func:`with_function`: a compiled graph that fails when it runs names it too."""
    source = f"{frame.f_code.co_filename}:{frame.f_lineno}"
    if source not in _FUNCTION_AT:
        _FUNCTION_AT[source] = describe(frame)
    return source


def with_function(exc: BaseException) -> BaseException:
    """``exc`` whose ``where`` is an equation's ``file:line``, given the function too."""
    full = _FUNCTION_AT.get(getattr(exc, "where", None) or "")
    if full is not None and isinstance(exc, SporelingError):
        _set_where(exc, full)
    return exc


def _deepest_user_line(tb):
    hit = None
    while tb is not None:
        if not is_library_frame(tb.tb_frame):
            hit = (tb.tb_frame, tb.tb_lineno)
        tb = tb.tb_next
    return hit


def locate(exc: BaseException, *, traceback: bool = False, frame=None) -> BaseException:
    """``exc`` with the user's location appended to its message, if it is a
    SporelingError that names none. ``traceback``: look first in the frames the exception
    passed through (the innermost user line there: the caller catches it above the user's
    code); otherwise walk out from ``frame`` (default: the caller's)."""
    if not isinstance(exc, SporelingError) or exc.where:
        return exc
    where = None
    if traceback:
        hit = _deepest_user_line(exc.__traceback__)
        if hit is not None:
            where = describe(*hit)
    if where is None:
        where = user_location(sys._getframe(1) if frame is None else frame)
    if where is not None:
        _set_where(exc, where)
    return exc


def _set_where(exc: SporelingError, where: str) -> None:
    exc.where = where
    message = exc._compose(exc.detail)
    exc.args = (message,) + tuple(exc.args[1:])
    if isinstance(exc, SyntaxError):  # str() of a SyntaxError reads .msg
        exc.msg = message
