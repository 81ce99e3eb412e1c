"""Typed registries that collecting hooks fill (tox's pattern).

A hook such as ``sporeling_add_backends(backends)`` receives a registry and calls
``backends.add(name, value)``. The plugin manager tells the registry which plugin is adding
(``registry.source``), so that a name contributed twice is reported with both plugins, and
what one plugin added can be taken back when that plugin is dropped (:meth:`rollback`)::

    >>> r = Registry("backend")
    >>> r.source = "runtime"; r.add("numpy", object())
    >>> r.source = "fastkernels"; r.add("numpy", object())
    Traceback (most recent call last):
    ...
    sporeling.core.errors.DuplicateNameError: backend 'numpy' is registered twice; expected one plugin per name, got 'runtime' and 'fastkernels'
    >>> r.rollback(); r.names()                # what 'fastkernels' added since it began
    ['numpy']
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Generic, TypeVar

from .errors import DuplicateNameError, PluginError

__all__ = ["Registry"]

T = TypeVar("T")
_MISSING = object()


class Registry(Generic[T]):
    """Name -> value, remembering which plugin contributed each entry."""

    def __init__(self, kind: str):
        self.kind = kind
        self._source: str = "<direct>"
        self._items: dict[str, T] = {}
        self._sources: dict[str, str] = {}
        # (name, previous value or _MISSING, previous source) per add by the current source
        self._journal: list[tuple[str, object, str | None]] = []

    @property
    def source(self) -> str:
        """The plugin adding now; setting it starts a new journal for :meth:`rollback`."""
        return self._source

    @source.setter
    def source(self, name: str) -> None:
        self._source, self._journal = name, []

    def add(self, name: str, value: T, *, replace: bool = False) -> None:
        """Register ``value`` under ``name``; ``replace=True`` overrides on purpose."""
        if not isinstance(name, str) or not name:
            raise PluginError(f"bad {self.kind} name from plugin {self.source!r}",
                              expected="a non-empty string", got=repr(name))
        if name in self._items and not replace:
            raise DuplicateNameError(self.kind, name, self._sources[name], self.source)
        self._journal.append((name, self._items.get(name, _MISSING), self._sources.get(name)))
        self._items[name] = value
        self._sources[name] = self.source
        self._changed(name)

    def rollback(self) -> None:
        """Take back everything added since ``source`` was last set (replaced entries get
        their previous value and plugin back): the plugin that added them is being dropped."""
        for name, old, old_source in reversed(self._journal):
            if old is _MISSING:
                del self._items[name], self._sources[name]
            else:
                self._items[name], self._sources[name] = old, old_source
            self._changed(name)
        self._journal = []

    def _changed(self, name: str) -> None:
        """Called after ``name`` was added, replaced or taken back: subclasses keeping
        tables derived from the entries update them here."""

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
