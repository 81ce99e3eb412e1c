"""Checks for the plain arguments of public functions and constructors -- sizes, counts,
rates -- before any work is done: each returns the value normalised (a Python ``int`` or
``float``) or raises an :class:`~sporeling.core.errors.ArgumentError` naming the function, the
argument, what it takes and what came. :func:`bad_arguments` is the net under them, for the
public entry points that translate the raw errors a bad argument caused deeper down.

    >>> check_int(3, "in_channels", op="Dense", min=1)
    3
    >>> check_int(float("nan"), "in_channels", op="Dense", min=1)
    Traceback (most recent call last):
    ...
    sporeling.core.errors.ArgumentError: Dense: bad in_channels; expected an int >= 1, got nan
"""
from __future__ import annotations

import functools
import math
import numbers
import os

from .errors import ArgumentError, OutOfMemoryError, SporelingError

__all__ = ["check_int", "check_ints", "check_float", "check_fits", "is_raw_error", "describe_arguments",
           "bad_arguments", "checked_init"]


def _range(kind: str, low, high) -> str:
    if low is not None and high is not None:
        return f"{kind} in [{low}, {high}]"
    if low is not None:
        return f"{kind} >= {low}"
    return f"{kind} <= {high}" if high is not None else kind


def check_int(value, name: str, *, op: str, min: int | None = None,
              max: int | None = None) -> int:
    """``value`` as an ``int`` in ``[min, max]``; integral floats (``2.0``) pass, ``bool``,
    NaN, strings and ``None`` do not."""
    if type(value) is int and (min is None or value >= min) and (max is None or value <= max):
        return value  # the common case, first: ops check their shapes on every eager call
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        number = int(value)
    elif isinstance(value, numbers.Real) and not isinstance(value, bool) \
            and math.isfinite(value) and float(value).is_integer():
        number = int(value)
    else:
        number = None
    if number is None or (min is not None and number < min) or \
            (max is not None and number > max):
        raise ArgumentError(f"bad {name}", op=op, expected=_range("an int", min, max),
                            got=repr(value))
    return number


def check_ints(value, name: str, *, op: str, n: int, min: int | None = None) -> tuple:
    """An int (repeated ``n`` times) or a sequence of ``n`` ints, each checked as by
    :func:`check_int`."""
    if isinstance(value, (list, tuple)):
        if len(value) != n:
            raise ArgumentError(f"bad {name}", op=op,
                                expected=f"an int or {n} ints{_range('', min, None)}",
                                got=repr(value))
        return tuple(check_int(v, name, op=op, min=min) for v in value)
    return (check_int(value, name, op=op, min=min),) * n


def check_float(value, name: str, *, op: str, min: float | None = None,
                max: float | None = None) -> float:
    """``value`` as a finite ``float`` in ``[min, max]``."""
    ok = isinstance(value, numbers.Real) and not isinstance(value, bool) and \
        math.isfinite(value) and (min is None or value >= min) and \
        (max is None or value <= max)
    if not ok:
        raise ArgumentError(f"bad {name}", op=op, expected=_range("a finite number", min, max),
                            got=repr(value))
    return float(value)



def _physical_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # no sysconf (Windows): 64 TiB, no bound
        return 1 << 46


def check_fits(nbytes: int, what: str, *, op: str) -> None:
    """Refuse, before any of it is allocated or looped over, a request for more bytes than
    this machine has memory (``Dense(2**62, 1)``, ``LSTM(..., num_layers=2**62)``)."""
    if nbytes > _physical_memory():
        raise OutOfMemoryError(f"{what} would not fit in memory", op=op,
                               expected=f"at most {_physical_memory()} bytes",
                               got=f"{nbytes} bytes")


# ---- the net under the checks: raw errors from a public entry point, translated
# exact types only: a subclass someone defined (a user's ValueError) means something of its own
_RAW = frozenset({TypeError, ValueError, AttributeError, IndexError, KeyError, LookupError,
                  ZeroDivisionError, ArithmeticError, OverflowError, StopIteration,
                  RecursionError, MemoryError})


def is_raw_error(exc: BaseException) -> bool:
    """A builtin or NumPy error -- what a bad argument makes Python or NumPy raise deep
    inside a function -- rather than one raised on purpose."""
    kind = type(exc)
    return kind in _RAW or (kind.__module__.split(".")[0] == "numpy"
                            and isinstance(exc, Exception))


def _brief(value) -> str:
    shape, dtype = getattr(value, "shape", None), getattr(value, "dtype", None)
    if shape is not None and dtype is not None:  # a tensor: its type, dtype and shape
        return f"{type(value).__name__}({dtype}{list(shape)})"
    return repr(value)


def describe_arguments(args: tuple, kwargs: dict) -> str:
    """``(1, 'a', axis=None)``, each argument cut to 60 characters."""
    parts = [_brief(a) for a in args] + [f"{k}={_brief(v)}" for k, v in kwargs.items()]
    return "(" + ", ".join(p if len(p) <= 60 else p[:57] + "..." for p in parts) + ")"


def bad_arguments(op: str, args: tuple, kwargs: dict, exc: BaseException) -> SporelingError:
    """The error to raise (``from exc``) for a raw ``exc`` escaping ``op`` called with
    ``args`` and ``kwargs``: an OutOfMemoryError for a MemoryError (sizes too large to
    allocate), else an ArgumentError quoting the original."""
    got = describe_arguments(args, kwargs)
    if isinstance(exc, MemoryError):
        return OutOfMemoryError("the arguments ask for more memory than there is", op=op,
                                got=got)
    return ArgumentError(f"bad arguments ({type(exc).__name__}: {exc})"[:300], op=op, got=got)


_BUILDING: set = set()  # ids of the objects whose outermost checked __init__ is running


def checked_init(init):
    """``init`` (a class's ``__init__``) with raw errors translated by :func:`bad_arguments`
    naming the class; a base class's ``__init__`` called from a subclass's leaves that to
    the outermost one, so the error quotes the arguments the user passed."""
    @functools.wraps(init)
    def __init__(self, *args, **kwargs):
        if id(self) in _BUILDING:
            return init(self, *args, **kwargs)
        _BUILDING.add(id(self))
        try:
            init(self, *args, **kwargs)
        except Exception as exc:
            if not is_raw_error(exc):
                raise
            raise bad_arguments(type(self).__name__, args, kwargs, exc) from exc
        finally:
            _BUILDING.discard(id(self))
    return __init__
