"""Kernels keyed by ``(backend, primitive)``, filled through ``sporeling_add_kernels``.

    >>> kernels = KernelRegistry()
    >>> kernels.add_kernel("numpy", "double", lambda backend, x, out=None: x * 2)
    >>> kernels.lookup("numpy", "double")(None, 21)
    42
    >>> kernels.primitives("numpy")
    ['double']
"""
from __future__ import annotations

from collections import defaultdict
from typing import Any, Callable, Protocol

from sporeling.core import PluginError, Registry, get_plugin_host
from sporeling.core.hooks import declare_registry

__all__ = ["Kernel", "KernelRegistry", "get_kernels"]


class Kernel(Protocol):
    """``fn(backend, *inputs, out=None, **attrs) -> array``."""

    def __call__(self, backend: Any, *inputs: Any, out: Any = None, **attrs: Any) -> Any: ...


class KernelRegistry(Registry[Callable]):
    """What ``sporeling_add_kernels`` fills; entries are named ``"backend.primitive"``."""

    def __init__(self) -> None:
        super().__init__("kernel")
        self._by_backend: dict[str, dict[str, Callable]] = defaultdict(dict)
        self._parts: dict[str, tuple[str, str]] = {}  # "backend.primitive" -> the two

    def add_kernel(self, backend: str, primitive: str, fn: Callable, *,
                   replace: bool = False) -> None:
        """Register ``fn`` as ``backend``'s kernel for ``primitive``."""
        for what, name in (("backend", backend), ("primitive", primitive)):
            if not isinstance(name, str) or not name:
                raise PluginError(f"bad {what} name for a kernel from plugin {self.source!r}",
                                  expected="a non-empty string", got=repr(name))
        if not callable(fn):
            raise PluginError(f"kernel {backend}.{primitive} from plugin {self.source!r} "
                              f"is not callable", expected="a function", got=repr(fn))
        name = f"{backend}.{primitive}"
        self._parts[name] = (backend, primitive)
        self.add(name, fn, replace=replace)

    def _changed(self, name: str) -> None:
        # the lookup table follows adds, replacements and a dropped plugin's rollback
        backend, primitive = self._parts[name]
        fn = self._items.get(name)
        if fn is None:
            self._by_backend[backend].pop(primitive, None)
        else:
            self._by_backend[backend][primitive] = fn

    def lookup(self, backend: str, primitive: str) -> Callable | None:
        """The kernel, or ``None``."""
        table = self._by_backend.get(backend)
        return None if table is None else table.get(primitive)

    def primitives(self, backend: str) -> list[str]:
        """Sorted primitive names that ``backend`` has kernels for."""
        return sorted(self._by_backend.get(backend, ()))


declare_registry("sporeling_add_kernels", KernelRegistry)


def get_kernels() -> KernelRegistry:
    """Every plugin's kernels, collected once per plugin host."""
    return get_plugin_host().registry("sporeling_add_kernels")
