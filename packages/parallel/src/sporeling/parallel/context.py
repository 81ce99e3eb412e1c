"""The parallel context: MindSpore's ``set_auto_parallel_context`` over core's context keys.

Each key is an ordinary context option declared through ``sporeling_add_context_options``
(so ``sporeling.core.set_context(comm_timeout=5)`` works too); these functions accept only the
parallel keys and validate every value before applying any.

    >>> set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True)
    >>> get_auto_parallel_context("parallel_mode")
    'data_parallel'
    >>> set_auto_parallel_context(parallel_mode="fast")
    Traceback (most recent call last):
    ...
    sporeling.core.errors.ContextError: set_context: bad value for 'parallel_mode'; expected one of 'stand_alone', 'data_parallel', 'semi_auto_parallel', 'auto_parallel', got 'fast'
    >>> reset_auto_parallel_context()
    >>> get_auto_parallel_context("parallel_mode")
    'stand_alone'
"""
from __future__ import annotations

import os
from typing import Any

from sporeling.core import ContextError, get_context, set_context

__all__ = ["PARALLEL_MODES", "SEARCH_MODES", "CHECK_MODES", "PARALLEL_KEYS", "set_auto_parallel_context",
           "get_auto_parallel_context", "reset_auto_parallel_context", "add_parallel_options"]

PARALLEL_MODES = ("stand_alone", "data_parallel", "semi_auto_parallel", "auto_parallel")
SEARCH_MODES = ("sharding_propagation", "dynamic_programming", "recursive_programming")


def _one_of(name: str, accepted: tuple[str, ...]):
    def convert(value):
        if not isinstance(value, str) or value not in accepted:
            raise ValueError("")  # `valid` already lists the accepted values
        return value
    return convert


def _flag(value):
    if not isinstance(value, bool):
        raise TypeError("must be True or False")
    return value


def _positive_int(value):
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError("must be an int >= 1")
    return value


def _device_num(value):
    return None if value is None else _positive_int(value)


def _seconds(value):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise ValueError("must be a number of seconds > 0")
    return float(value)


def _default_timeout() -> float:
    """120 s, or ``SPORELING_COMM_TIMEOUT`` (``sporeling run --timeout`` sets it)."""
    return _seconds(float(os.environ.get("SPORELING_COMM_TIMEOUT", "120")))


def _listing(values) -> str:
    return "one of " + ", ".join(repr(v) for v in values)


CHECK_MODES = ("off", "on")


def _default_check() -> str:
    """``"on"``, or ``SPORELING_COMM_CHECK`` (so every rank of a launched job agrees)."""
    value = os.environ.get("SPORELING_COMM_CHECK", "on")
    if value not in CHECK_MODES:
        raise ContextError("bad SPORELING_COMM_CHECK", op="comm_check",
                           expected=_listing(CHECK_MODES), got=repr(value))
    return value


_ENV_DEFAULTS = {"comm_timeout": _default_timeout, "comm_check": _default_check}

# name -> (default, convert, valid, doc)
_OPTIONS: dict[str, tuple[Any, Any, str, str]] = {
    "parallel_mode": ("stand_alone", _one_of("parallel_mode", PARALLEL_MODES),
                      _listing(PARALLEL_MODES),
                      "How a model is spread over the ranks (MindSpore's ParallelMode)."),
    "device_num": (None, _device_num, "None (the world size) or an int >= 1",
                   "Ranks the job expects; init() fails when the world differs."),
    "gradients_mean": (False, _flag, "True or False",
                       "Data parallel: average (True) or sum (False) gradients over ranks."),
    "search_mode": ("dynamic_programming", _one_of("search_mode", SEARCH_MODES),
                    _listing(SEARCH_MODES), "Strategy search algorithm of auto_parallel."),
    "pipeline_stages": (1, _positive_int, "an int >= 1", "Pipeline-parallel stage count."),
    "enable_parallel_optimizer": (False, _flag, "True or False",
                                  "Shard optimizer state over data-parallel ranks (ZeRO-1)."),
    "comm_timeout": (None, _seconds, "a number of seconds > 0",
                     "Longest wait of any collective or send/recv before "
                     "CollectiveTimeoutError."),
    "comm_check": (None, _one_of("comm_check", CHECK_MODES), _listing(CHECK_MODES),
                   "Exchange every collective's signature first: ranks that call different "
                   "collectives raise CollectiveMismatchError instead of moving wrong data."),
}
PARALLEL_KEYS = tuple(_OPTIONS)


def add_parallel_options(options) -> None:
    """Declare the parallel keys on core's context registry (called by the plugin)."""
    for name, (default, convert, valid, doc) in _OPTIONS.items():
        if name in _ENV_DEFAULTS:
            default = _ENV_DEFAULTS[name]()
        options.add_option(name, default, convert=convert, valid=valid, doc=doc)


def _check_keys(op: str, keys) -> None:
    for key in keys:
        if key not in _OPTIONS:
            raise ContextError(f"unknown key {key!r}", op=op,
                               expected=f"one of {', '.join(PARALLEL_KEYS)}", got=repr(key))


def set_auto_parallel_context(**kwargs: Any) -> None:
    """Set parallel keys (``parallel_mode``, ``device_num``, ``gradients_mean``,
    ``search_mode``, ``pipeline_stages``, ``enable_parallel_optimizer``, ``comm_timeout``,
    ``comm_check``)."""
    _check_keys("set_auto_parallel_context", kwargs)
    set_context(**kwargs)


def get_auto_parallel_context(key: str) -> Any:
    """The value of one parallel key."""
    _check_keys("get_auto_parallel_context", [key])
    return get_context(key)


def reset_auto_parallel_context() -> None:
    """Every parallel key back to its default (other context keys untouched)."""
    set_context(**{name: (_ENV_DEFAULTS[name]() if name in _ENV_DEFAULTS else default)
                   for name, (default, *_rest) in _OPTIONS.items()})
