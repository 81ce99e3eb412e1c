"""Raw errors escaping a Cell's call reported as Sporeling errors.

The layers check their arguments by name (:mod:`sporeling.core.arguments`), and a Sporeling
Cell's ``__init__`` is wrapped by :func:`~sporeling.core.arguments.checked_init`; this is
the same net for the call: a raw builtin or NumPy error (``None.shape``...) escaping the
construct of a Cell defined by Sporeling becomes an
:class:`~sporeling.core.errors.ArgumentError` naming the class and the inputs, chained to
the original. Other errors (a user's own, a SporelingError) pass through.
"""
from __future__ import annotations

from sporeling.core.arguments import bad_arguments, is_raw_error

__all__ = ["call_error"]


def call_error(cell, args: tuple, kwargs: dict, exc: Exception) -> Exception:
    """What to raise for ``exc`` escaping ``cell``'s construct: the translation of a raw
    error in a Sporeling cell (its inputs were not what it takes), else ``exc`` itself."""
    if not is_raw_error(exc) or not type(cell).__module__.startswith("sporeling."):
        return exc
    return bad_arguments(type(cell).__name__, args, kwargs, exc)
