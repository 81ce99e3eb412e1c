"""The one place for settings: ``set_context``, ``get_context`` and ``with context(...)``.

Core declares ``mode``, ``device_target``, ``device_id``, ``max_call_depth`` and
``jit_level``; every other package declares its own keys through the
``sporeling_add_context_options`` hook. An unknown key, or a bad value for a known one,
raises :class:`ContextError` listing what is valid. A key may have an *alias*, another name
for the same value (``graph_opt_level`` for ``jit_level``): setting either sets both.

    >>> from sporeling.core import set_context, get_context, context, GRAPH_MODE
    >>> with context(mode=GRAPH_MODE):
    ...     get_context("mode") == GRAPH_MODE
    True
    >>> set_context(flavour="spicy")
    Traceback (most recent call last):
    ...
    sporeling.core.errors.ContextError: set_context: unknown key 'flavour'; expected one of ...
"""
from __future__ import annotations

import contextlib
import difflib
from dataclasses import dataclass
from typing import Any, Callable

from .errors import ContextError, PluginError, SporelingError
from .hooks import declare_registry, get_plugin_host
from .registry import Registry

__all__ = ["GRAPH_MODE", "PYNATIVE_MODE", "ContextOption", "ContextOptions", "set_context",
           "get_context", "context", "reset_context", "context_version"]

GRAPH_MODE = 0
"""Compile ``construct``/``jit`` functions to a graph (MindSpore's value)."""
PYNATIVE_MODE = 1
"""Run op by op, eagerly (the default, as in MindSpore 2.x)."""


@dataclass(frozen=True)
class ContextOption:
    """One settable key: its default, a converter that validates, and what is valid; or,
    with ``alias_of``, another name of the key so named."""
    name: str
    default: Any
    convert: Callable[[Any], Any]
    valid: str
    doc: str
    alias_of: str | None = None

    def check(self, value: Any) -> Any:
        try:
            return self.convert(value)
        except SporelingError as exc:
            raise ContextError(f"bad value for {self.name!r}", op="set_context",
                               expected=self.valid, got=repr(value),
                               hint=exc.detail if exc.detail else None) from None
        except (TypeError, ValueError) as exc:
            raise ContextError(f"bad value for {self.name!r}", op="set_context",
                               expected=self.valid, got=repr(value),
                               hint=str(exc) or None) from None


class ContextOptions(Registry[ContextOption]):
    """What ``sporeling_add_context_options`` fills."""

    def __init__(self):
        super().__init__("context option")

    def add_option(self, name: str, default: Any, *, doc: str, valid: str,
                   convert: Callable[[Any], Any] | None = None,
                   choices: dict[str, Any] | None = None, replace: bool = False) -> None:
        """Declare a key. ``convert`` validates and normalises a value (raising ``ValueError``
        or ``TypeError`` on a bad one); ``choices`` maps accepted values' names to values.
        ``replace=True`` redeclares another package's key on purpose (the runtime checks
        core's ``device_target`` against installed backends); otherwise a key declared twice
        drops the later plugin."""
        if choices is not None:
            convert = _from_choices(choices)
        option = ContextOption(name, default, convert or (lambda v: v), valid, doc)
        try:  # defaults go through the same conversion as set values ("1GB" -> int)
            option = ContextOption(name, option.check(default), option.convert, valid, doc)
        except ContextError as exc:
            raise PluginError(f"bad default for context option {name!r} from plugin "
                              f"{self.source!r}", expected=valid, got=repr(default)) from exc
        self.add(name, option, replace=replace)

    def add_alias(self, name: str, target: str, *, doc: str) -> None:
        """Declare ``name`` as another name of the key ``target`` (declared by this plugin or
        one loaded before): one value, set and read through either. ``get_context()``
        lists the key under ``target`` only."""
        self.add(name, ContextOption(name, None, lambda v: v, f"as for {target!r}", doc,
                                     alias_of=target))


def _from_choices(choices: dict[str, Any]) -> Callable[[Any], Any]:
    def convert(value):
        for accepted in choices.values():
            if value == accepted and type(value) is type(accepted):
                return value
        raise ValueError("")  # the option's `valid` text already lists the choices
    return convert


declare_registry("sporeling_add_context_options", ContextOptions)


def _options() -> ContextOptions:
    return get_plugin_host().registry("sporeling_add_context_options")


_values: dict[str, Any] = {}
_version = [0]  # bumped on every change, so hot paths can cache what they derive from keys


def _option(key: str) -> ContextOption:
    """The option of ``key``, the aliased one for an alias."""
    options = _options()
    if key not in options:
        close = difflib.get_close_matches(key, options.names(), n=1)
        hint = f"Did you mean {close[0]!r}?" if close else \
            "A package adds its keys when it is installed"
        raise ContextError(f"unknown key {key!r}", op="set_context",
                           expected=f"one of {', '.join(options.names())}", got=repr(key),
                           hint=hint)
    option = options[key]
    return option if option.alias_of is None else _option(option.alias_of)


def set_context(**kwargs: Any) -> None:
    """Set one or more keys. All are validated before any is applied."""
    checked = {}
    for key, value in kwargs.items():
        option = _option(key)
        checked[option.name] = option.check(value)
    _values.update(checked)
    _version[0] += 1


def get_context(key: str | None = None) -> Any:
    """The value of ``key``; with no key, a dict of every key's value."""
    if key is None:
        return {name: _values.get(name, opt.default) for name, opt in _options().items()
                if opt.alias_of is None}
    if key in _values:
        return _values[key]
    option = _option(key)
    return _values.get(option.name, option.default)


def context_version() -> int:
    """A number that changes whenever any key changes; cheap to poll on hot paths."""
    return _version[0]


@contextlib.contextmanager
def context(**kwargs: Any):
    """Temporarily set keys; the previous values come back on exit, even after an error."""
    names = {_option(key).name for key in kwargs}  # an alias restores the key it names
    before = {name: _values[name] for name in names if name in _values}
    set_context(**kwargs)
    try:
        yield
    finally:
        for name in names:
            if name in before:
                _values[name] = before[name]
            else:
                _values.pop(name, None)
        _version[0] += 1


def reset_context() -> None:
    """Every key back to its default."""
    _values.clear()
    _version[0] += 1
