"""The backend contract, the backend registry, and choosing a backend.

A backend holds buffers and runs kernels looked up by primitive name. Plugins contribute
backends through ``sporeling_add_backends`` and kernels through ``sporeling_add_kernels``;
:func:`get_backend` picks one by name or by ``set_context(device_target=...)``.

    >>> import numpy as np
    >>> cpu = get_backend()                      # device_target defaults to "CPU"
    >>> cpu.device_target, get_backend("numpy").name
    ('CPU', 'numpy')
    >>> x = cpu.from_numpy(np.array([1.0, -2.0], np.float32))
    >>> cpu.to_numpy(cpu.run("relu", x))
    array([1., 0.], dtype=float32)
"""
from __future__ import annotations

import abc
import difflib
import math
from typing import Any, Callable, ClassVar, NamedTuple

import numpy as np

from sporeling.core import PluginError, Registry, get_context, get_plugin_host
from sporeling.core.hooks import declare_registry

from .errors import BackendNotFoundError, KernelNotFoundError
from .kernel_registry import Kernel, KernelMemory, get_kernels

__all__ = ["Backend", "CallReport", "BackendRegistry", "get_backends", "get_backend",
           "installed_targets", "check_device_target", "check_backend_name"]


class CallReport(NamedTuple):
    """Who runs one call of a compiled program (``Backend.explain_call``): the provider's
    name, whether a code-generating backend generated it, and if it would have but did
    not, why (its provider is then the one below)."""
    provider: str
    generated: bool = False
    not_generated: str | None = None

    def __str__(self) -> str:
        if self.generated:
            return f"{self.provider}: generated"
        if self.not_generated is not None:
            return f"{self.provider} (not generated: {self.not_generated})"
        return self.provider


class Backend(abc.ABC):
    """What every backend offers. Subclasses set ``name`` and ``device_target``.

    ``priority`` breaks ties when several installed backends serve one device target (the
    highest wins, then the first registered).
    """

    name: ClassVar[str]
    device_target: ClassVar[str]
    priority: ClassVar[int] = 0
    native: ClassVar[bool] = False
    """Generates native code for Graph mode's programs: what ``jit_level="O2"`` lowers on."""

    @abc.abstractmethod
    def allocate(self, shape, dtype=np.float32, persistent: bool = False) -> Any:
        """An uninitialised buffer; ``persistent`` for parameters, constants, graph I/O."""

    @abc.abstractmethod
    def from_numpy(self, array: np.ndarray, persistent: bool = False) -> Any:
        """A buffer holding a copy of ``array``."""

    @abc.abstractmethod
    def to_numpy(self, buffer: Any) -> np.ndarray:
        """The buffer's contents as a NumPy array."""

    def kernel(self, primitive: str) -> Kernel:
        """This backend's kernel for ``primitive``; an error lists close names if none."""
        kernels = get_kernels()
        fn = kernels.lookup(self.name, primitive)
        if fn is None:
            known = kernels.primitives(self.name)
            close = difflib.get_close_matches(primitive, known, n=5, cutoff=0.6)
            raise KernelNotFoundError(
                f"no kernel for primitive {primitive!r} on backend {self.name!r}",
                op=primitive, expected=f"one of the {len(known)} primitives it has kernels for",
                got=repr(primitive),
                hint=(f"did you mean {', '.join(map(repr, close))}?" if close else
                      "a plugin adds kernels through the sporeling_add_kernels hook"))
        return fn

    def has_kernel(self, primitive: str) -> bool:
        return get_kernels().lookup(self.name, primitive) is not None

    def provider(self, primitive: str) -> str:
        """The name of the backend whose kernel runs ``primitive`` (a stacked backend may
        hand a primitive to another provider; see ``stacked_backend``)."""
        return self.name

    def explain_call(self, primitive: str, params: dict, specs) -> CallReport:
        """Who runs a call of ``primitive`` with ``params`` on operands of these ``(shape,
        dtype)`` pairs, for a compiled program's report (``jit(f).explain()``): the
        provider; a code-generating backend says whether it generated the call."""
        return CallReport(self.provider(primitive))

    def kernel_memory(self, primitive: str) -> KernelMemory:
        """What this backend's kernel for ``primitive`` declared about memory (the
        compiler plans buffers from it); ``opaque`` when undeclared."""
        return get_kernels().memory(self.name, primitive)

    def recomputes_in_fusion(self, primitive: str) -> bool:
        """Whether a fused chain on this backend may compute a ``primitive`` node twice
        rather than store its value: true where chains are generated loops (a recomputed
        node costs a few instructions in registers, a stored one a write, a read and often
        a kernel call more); false for kernels that run node by node over whole arrays."""
        return False

    def arena_view(self, arena: Any, offset: int, shape, dtype) -> Any:
        """A planned buffer of a compiled program: ``shape``/``dtype`` at byte ``offset``
        of ``arena`` (from ``allocate((n,), uint8)``). Host memory: a NumPy view; a device
        backend returns a view of its own memory."""
        dtype = np.dtype(dtype)
        nbytes = math.prod(shape) * dtype.itemsize
        return arena[offset:offset + nbytes].view(dtype).reshape(shape)

    def run(self, primitive: str, *inputs: Any, out: Any = None, **attrs: Any) -> Any:
        """Eagerly run one op: the kernel writes into ``out`` or a fresh pool buffer."""
        return self.kernel(primitive)(self, *inputs, out=out, **attrs)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r} ({self.device_target})>"


class BackendRegistry(Registry[Callable[[], Backend]]):
    """What ``sporeling_add_backends`` fills: name -> factory, built once on first use."""

    def __init__(self) -> None:
        super().__init__("backend")
        self._instances: dict[str, Backend] = {}

    def add(self, name: str, value: Callable[[], Backend], *, replace: bool = False) -> None:
        if not callable(value):
            raise PluginError(f"backend {name!r} from plugin {self.source!r} is not a factory",
                              expected="a Backend subclass or a callable returning a Backend",
                              got=repr(value))
        super().add(name, value, replace=replace)

    def _changed(self, name: str) -> None:  # added, replaced or taken back: build anew
        self._instances.pop(name, None)

    def instance(self, name: str) -> Backend:
        """The backend registered as ``name``, built on first use."""
        if name not in self._instances:
            backend = self[name]()
            if not isinstance(backend, Backend):
                raise PluginError(f"backend {name!r} from plugin {self.source_of(name)!r} "
                                  f"built a wrong object", expected="a Backend instance",
                                  got=type(backend).__name__)
            self._instances[name] = backend
        return self._instances[name]

    def target_of(self, name: str) -> str:
        target = getattr(self[name], "device_target", None)
        return target if isinstance(target, str) else self.instance(name).device_target

    def targets(self) -> dict[str, list[str]]:
        """Device target (upper case) -> backend names serving it, in registration order."""
        result: dict[str, list[str]] = {}
        for name in self:
            result.setdefault(self.target_of(name).upper(), []).append(name)
        return result


declare_registry("sporeling_add_backends", BackendRegistry)


def get_backends() -> BackendRegistry:
    """Every plugin's backends, collected once per plugin host."""
    return get_plugin_host().registry("sporeling_add_backends")


def installed_targets() -> str:
    """``"CPU (numpy), TOY (toy)"``: each installed device target and its backends."""
    targets = get_backends().targets()
    return ", ".join(f"{t} ({', '.join(names)})" for t, names in sorted(targets.items())) \
        or "none"


def check_device_target(value) -> str:
    """``set_context(device_target=...)``'s converter once the runtime is installed: the
    target in upper case, if an installed backend serves it (``ValueError`` otherwise)."""
    if not isinstance(value, str) or not value.strip():
        raise TypeError("must be a non-empty string")
    target = value.strip().upper()
    if target not in get_backends().targets():
        raise ValueError(f"no installed backend serves {target!r}; installed: "
                         f"{installed_targets()}")
    return target


def check_backend_name(value) -> str | None:
    """``set_context(backend=...)``'s converter: ``None`` (the device target's default
    backend) or the name of an installed backend (``ValueError`` listing them otherwise)."""
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise TypeError("must be None or a backend name")
    if value.strip() not in get_backends():
        raise ValueError(f"no installed backend is named {value!r}; installed: "
                         f"{installed_targets()}")
    return value.strip()


def get_backend(name_or_target: str | None = None) -> Backend:
    """A backend by name (``"numpy"``) or device target (``"CPU"``, any case).

    With no argument, ``get_context("device_target")`` decides. Among the backends serving
    a device target, ``set_context(backend=name)`` chooses; otherwise the highest
    ``priority`` wins.
    """
    from_context = name_or_target is None
    key = get_context("device_target") if from_context else name_or_target
    backends = get_backends()
    if key in backends:
        return backends.instance(key)
    targets = backends.targets()
    names = targets.get(str(key).upper())
    if not names:
        raise BackendNotFoundError(
            f"no backend for {key!r}",
            expected=f"a device target ({', '.join(sorted(targets)) or 'none installed'}) "
                     f"or a backend name ({', '.join(backends.names()) or 'none'})",
            got=repr(key), where="set_context(device_target=...)" if from_context else None,
            hint="a plugin adds backends through the sporeling_add_backends hook")
    preferred = get_context("backend")
    if preferred in names:
        return backends.instance(preferred)
    best = max(names, key=lambda n: (getattr(backends[n], "priority", 0), -names.index(n)))
    return backends.instance(best)
