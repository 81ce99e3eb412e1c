"""Typed registries that collecting hooks fill (tox's pattern).

A hook such as ``sporeling_add_backends(backends)`` receives a registry and calls
``backends.add(name, value)``. The plugin manager tells the registry which plugin is adding
(``registry.source``), so that a name contributed twice is reported with both plugins::

    >>> r = Registry("backend")
    >>> r.source = "runtime"; r.add("numpy", object())
    >>> r.source = "fastkernels"; r.add("numpy", object())
    Traceback (most recent call last):
    ...
    sporeling.core.errors.PluginError: backend 'numpy' is registered twice; expected one plugin per name, got 'runtime' and 'fastkernels'
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Generic, TypeVar

from .errors import PluginError

__all__ = ["Registry"]

T = TypeVar("T")


class Registry(Generic[T]):
    """Name -> value, remembering which plugin contributed each entry."""

    def __init__(self, kind: str):
        self.kind = kind
        self.source: str = "<direct>"
        self._items: dict[str, T] = {}
        self._sources: dict[str, str] = {}

    def add(self, name: str, value: T, *, replace: bool = False) -> None:
        """Register ``value`` under ``name``; ``replace=True`` overrides on purpose."""
        if not isinstance(name, str) or not name:
            raise PluginError(f"bad {self.kind} name from plugin {self.source!r}",
                              expected="a non-empty string", got=repr(name))
        if name in self._items and not replace:
            raise PluginError(f"{self.kind} {name!r} is registered twice",
                              expected="one plugin per name",
                              got=f"{self._sources[name]!r} and {self.source!r}")
        self._items[name] = value
        self._sources[name] = self.source

    def __getitem__(self, name: str) -> T:
        try:
            return self._items[name]
        except KeyError:
            raise KeyError(f"no {self.kind} named {name!r}; known: {', '.join(sorted(self._items)) or 'none'}") from None

    def get(self, name: str, default=None):
        return self._items.get(name, default)

    def source_of(self, name: str) -> str:
        """The plugin that contributed ``name``."""
        return self._sources[name]

    def __contains__(self, name: object) -> bool:
        return name in self._items

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def items(self):
        return self._items.items()

    def names(self) -> list[str]:
        return sorted(self._items)

    def __repr__(self) -> str:
        return f"<Registry of {self.kind}: {', '.join(self.names())}>"
