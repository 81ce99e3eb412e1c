"""The plugin host: one pluggy ``PluginManager`` for project ``sporeling``.

Every installed package, ours or a third party's, joins through the entry-point group
``sporeling``::

    [project.entry-points.sporeling]
    runtime = "sporeling.runtime.plugin"

A plugin module implements hooks with :data:`impl`. A module that *owns* extension points
exposes its hookspec module as ``HOOKSPECS``; the host adds those specs before registering
anything. A plugin that raises on import (or implements a hook wrongly) is recorded in
:attr:`PluginHost.failed` with its error, and the others load.
``SPORELING_DISABLED_PLUGINS=a,b`` blocks plugins by entry-point name.

Collecting hooks receive a :class:`~sporeling.core.registry.Registry`; use
:meth:`PluginHost.collect` to call each implementation in turn. A plugin that registers a
name another plugin already has, or raises in the hook, is *dropped*: recorded in
:attr:`PluginHost.failed` (naming both plugins and distributions for a duplicate), its
contributions taken back from every registry, its hooks unregistered -- the others keep
working. Sporeling's own distributions (``sporeling-*``) register before third-party ones,
``core`` first, so a third-party plugin cannot displace a built-in name. A package declares
its registries with :func:`declare_registry`; ``sporeling plugins`` collects them all so
that every conflict shows.

    >>> from sporeling.core import get_plugin_host
    >>> "core" in [p.name for p in get_plugin_host().loaded]
    True
"""
from __future__ import annotations

import os
import traceback
import warnings
from dataclasses import dataclass, field
from importlib import metadata
from types import ModuleType
from typing import Any, Callable, TypeVar

import pluggy

from .errors import DuplicateNameError, PluginError

__all__ = [
    "PROJECT", "ENTRY_POINT_GROUP", "DISABLE_ENV", "hookspec", "impl", "PluginInfo",
    "PluginFailure", "PluginHost", "PluginWarning", "get_plugin_host", "set_plugin_host",
    "declare_registry",
]

PROJECT = "sporeling"
ENTRY_POINT_GROUP = "sporeling"
DISABLE_ENV = "SPORELING_DISABLED_PLUGINS"

hookspec = pluggy.HookspecMarker(PROJECT)
"""Marker for hook specifications (used in each package's ``hookspecs.py``)."""
impl = pluggy.HookimplMarker(PROJECT)
"""Marker for hook implementations, for plugin authors: ``@impl def sporeling_add_...``."""

R = TypeVar("R")


class PluginWarning(UserWarning):
    """A plugin could not be loaded; the others keep working."""


@dataclass
class PluginInfo:
    """A loaded plugin: entry-point name, distribution, version, module, implemented hooks."""
    name: str
    distribution: str
    version: str
    module: str
    hooks: list[str] = field(default_factory=list)


@dataclass
class PluginFailure:
    """A plugin that failed to load, with the error that stopped it."""
    name: str
    distribution: str
    version: str
    error: str
    traceback: str = ""


def _disabled_names() -> set[str]:
    return {n.strip() for n in os.environ.get(DISABLE_ENV, "").split(",") if n.strip()}


def _entry_points() -> list[metadata.EntryPoint]:
    seen, result = set(), []
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        if (ep.name, ep.value) not in seen:  # editable installs can list a dist twice
            seen.add((ep.name, ep.value))
            result.append(ep)
    # core first: its specs (context options, commands) are what the others implement; then
    # the project's own distributions, so that on a clash the third-party plugin is dropped
    return sorted(result, key=lambda ep: (ep.name != "core", not _ours(ep), ep.name))


def _ours(ep: metadata.EntryPoint) -> bool:
    return _dist_of(ep)[0].lower().startswith("sporeling-")


def _dist_of(ep: metadata.EntryPoint) -> tuple[str, str]:
    dist = getattr(ep, "dist", None)
    return (dist.metadata["Name"], dist.version) if dist is not None else ("?", "?")


class PluginHost:
    """Loads plugins and offers their hooks; holds caches derived from them.

    ``PluginHost(load=False)`` gives an empty host, to which tests add modules with
    :meth:`add_plugins`.
    """

    def __init__(self, load: bool = True):
        self.pm = pluggy.PluginManager(PROJECT)
        self.loaded: list[PluginInfo] = []
        self.failed: list[PluginFailure] = []
        self.disabled: list[str] = []
        self._caches: dict[str, Any] = {}
        self._registries: dict[str, Any] = {}  # hook name -> filled registry (hot: get_context)
        if load:
            self.load_entry_points()

    @property
    def hook(self):
        """Pluggy's hook relay: ``host.hook.sporeling_<verb>_<thing>(...)``."""
        return self.pm.hook

    def load_entry_points(self) -> None:
        """Import and register every plugin of the ``sporeling`` entry-point group."""
        disabled = _disabled_names()
        found = []
        for ep in _entry_points():
            dist, version = _dist_of(ep)
            if ep.name in disabled:
                self.disabled.append(ep.name)
                continue
            try:
                module = ep.load()
            except Exception as exc:  # a broken plugin must not break the others
                self._fail(ep.name, dist, version, exc)
                continue
            found.append((ep.name, dist, version, module))
        self.add_plugins(found)

    def add_plugins(self, plugins: list[tuple[str, str, str, ModuleType]]) -> None:
        """Register ``(name, distribution, version, module)`` plugins, specs first."""
        for name, dist, version, module in plugins:
            specs = getattr(module, "HOOKSPECS", None)
            if specs is not None:
                self.pm.add_hookspecs(specs)
        for name, dist, version, module in plugins:
            try:
                self.pm.register(module, name=name)
            except Exception as exc:  # e.g. pluggy's validation of a wrong signature
                if self.pm.is_registered(module):
                    self.pm.unregister(module)
                self._fail(name, dist, version, exc)
                continue
            hooks = sorted(c.name for c in self.pm.get_hookcallers(module) or [])
            self.loaded.append(PluginInfo(name, dist, version, module.__name__, hooks))
        self._caches.clear()
        self._registries.clear()

    def _fail(self, name: str, dist: str, version: str, exc: BaseException) -> None:
        error = f"{type(exc).__name__}: {exc}"
        tb = "".join(traceback.format_exception(exc))
        self.failed.append(PluginFailure(name, dist, version, error, tb))
        warnings.warn(f"sporeling plugin {name!r} ({dist}) failed to load: {error}",
                      PluginWarning, stacklevel=3)

    def collect(self, hook_name: str, registry, **kwargs):
        """Call every implementation of a collecting hook, one plugin at a time.

        ``registry.source`` names the plugin while it adds. A plugin whose call raises (a
        name already registered, a bad value, a crash) is dropped (:meth:`drop`) after its
        additions are rolled back, and collection goes on with the next plugin.
        """
        caller = getattr(self.pm.hook, hook_name, None)
        kwargs = {self._registry_arg(hook_name, caller): registry, **kwargs}
        try:
            for hookimpl in caller.get_hookimpls():  # registration order (pluggy calls LIFO)
                if self.pm.get_plugin(hookimpl.plugin_name) is None:
                    continue  # dropped meanwhile (by a nested collection)
                registry.source = hookimpl.plugin_name
                args = {k: v for k, v in kwargs.items() if k in hookimpl.argnames}
                try:
                    hookimpl.function(**args)
                except Exception as exc:  # a bad plugin must not break the others
                    registry.rollback()
                    self.drop(hookimpl.plugin_name, self._why(hook_name, exc), exc)
        finally:
            registry.source = "<direct>"
        return registry

    def _label(self, plugin: str) -> str:
        dist = next((p.distribution for p in self.loaded if p.name == plugin), None)
        return f"plugin {plugin!r}" + (f" ({dist})" if dist else "")

    def _why(self, hook_name: str, exc: Exception) -> str:
        if isinstance(exc, DuplicateNameError):
            return (f"{exc.kind} {exc.name!r} is already registered by "
                    f"{self._label(exc.first)}; {self._label(exc.second)} registers it again "
                    f"in {hook_name}")
        return f"failed in {hook_name}: {type(exc).__name__}: {exc}"

    def drop(self, plugin: str, reason: str, exc: BaseException | None = None) -> None:
        """Unload a plugin that turned out bad: unregister its hooks, move it from
        :attr:`loaded` to :attr:`failed` with ``reason``, forget every registry built with
        it (they are rebuilt without it on next use), warn."""
        info = next((p for p in self.loaded if p.name == plugin), None)
        if info is not None:
            self.loaded.remove(info)
        if self.pm.get_plugin(plugin) is not None:
            self.pm.unregister(name=plugin)
        dist, version = (info.distribution, info.version) if info else ("?", "?")
        tb = "".join(traceback.format_exception(exc)) if exc is not None else ""
        self.failed.append(PluginFailure(plugin, dist, version, reason, tb))
        self._caches.clear()
        self._registries.clear()
        warnings.warn(f"sporeling plugin {plugin!r} ({dist}) was dropped: {reason} (the "
                      f"others work; {DISABLE_ENV}={plugin} silences this)",
                      PluginWarning, stacklevel=3)

    def registry(self, hook_name: str):
        """The registry :func:`declare_registry` declared for ``hook_name``, collected once
        per host."""
        found = self._registries.get(hook_name)
        if found is None:
            if hook_name not in _DECLARED:
                raise PluginError(f"no registry declared for hook {hook_name!r}",
                                  hint="the package owning the hook calls declare_registry")
            found = self._registries[hook_name] = self.collect(hook_name,
                                                               _DECLARED[hook_name]())
        return found

    def collect_declared(self) -> None:
        """Collect every declared registry whose hook this host knows, so that conflicts
        and failing hooks show up in :attr:`failed` now rather than on first use."""
        specs = self.hookspecs()
        for hook_name in list(_DECLARED):
            if hook_name in specs:
                self.registry(hook_name)

    @staticmethod
    def _registry_arg(hook_name: str, caller) -> str:
        if caller is None or caller.spec is None:
            raise PluginError(f"hook {hook_name!r} has no specification",
                              hint="is the package that owns it installed?")
        return caller.spec.argnames[0]

    def cached(self, key: str, build: Callable[[], R]) -> R:
        """A value derived from the plugins (a filled registry), built once per host."""
        if key not in self._caches:
            self._caches[key] = build()
        return self._caches[key]

    def hookspecs(self) -> dict[str, Callable]:
        """Every hook specification known to this host: name -> spec function."""
        return {name: caller.spec.function for name, caller in vars(self.pm.hook).items()
                if getattr(caller, "spec", None) is not None}


_DECLARED: dict[str, Callable[[], Any]] = {}


def declare_registry(hook_name: str, factory: Callable[[], Any]) -> None:
    """Declare that the collecting hook ``hook_name`` fills ``factory()`` (a Registry), so
    that :meth:`PluginHost.registry` can build it and :meth:`PluginHost.collect_declared`
    (``sporeling plugins``) can check it. Called at import by the package owning the hook."""
    _DECLARED[hook_name] = factory


_host: PluginHost | None = None


def get_plugin_host() -> PluginHost:
    """The process-wide plugin host, loading plugins on first use."""
    global _host
    if _host is None:
        _host = PluginHost()
    return _host


def set_plugin_host(host: PluginHost | None) -> PluginHost | None:
    """Replace the process-wide host (tests); ``None`` reloads on next use. Returns the old."""
    global _host
    old, _host = _host, host
    return old
