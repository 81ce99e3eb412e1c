"""Kernels keyed by ``(backend, primitive)``, filled through ``sporeling_add_kernels``.

    >>> kernels = KernelRegistry()
    >>> kernels.add_kernel("numpy", "double", lambda backend, x, out=None: x * 2)
    >>> kernels.lookup("numpy", "double")(None, 21)
    42
    >>> kernels.primitives("numpy")
    ['double']

A kernel may declare what it does with memory (:class:`KernelMemory`); the compiler's
lowering plans buffers from that, per backend. An undeclared kernel is treated
conservatively: it allocates, and its outputs may alias any input.

    >>> kernels.add_kernel("numpy", "twice", lambda b, x, out=None: x * 2,
    ...                    memory=KernelMemory.writes_out(in_place=(0,)))
    >>> kernels.memory("numpy", "twice")
    KernelMemory(kind='out', in_place=(0,))
    >>> kernels.memory("numpy", "double").kind
    'opaque'
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Callable, Protocol

from sporeling.core import PluginError, Registry, get_plugin_host
from sporeling.core.hooks import declare_registry

__all__ = ["Kernel", "KernelMemory", "KernelRegistry", "get_kernels"]


class Kernel(Protocol):
    """``fn(backend, *inputs, out=None, **attrs) -> array``."""

    def __call__(self, backend: Any, *inputs: Any, out: Any = None, **attrs: Any) -> Any: ...


@dataclass(frozen=True)
class KernelMemory:
    """What a kernel does with memory -- the facts the compiler's memory planner relies on.

    ``kind``:

    * ``"out"`` -- a single-result kernel that writes its whole result into ``out=`` and
      returns it (never a view of an input): its output gets a planned arena buffer.
    * ``"view"`` -- returns a view of its (first) input when given no ``out``: never
      planned, and the input's buffer must outlive every use of the view.
    * ``"fresh"`` -- allocates every result (multiple results too): not planned, aliases
      nothing.
    * ``"outs"`` -- a multi-result kernel that allocates each result unless given a buffer
      for it: ``out=`` a tuple, one entry per result, None where it allocates. Not planned;
      lowering gives it only Parameters' buffers (a training step's updates written in
      place, see ``sporeling.compiler.lowering.updates``).
    * ``"opaque"`` -- nothing promised (the default): it allocates, and its outputs may
      alias any input.

    ``in_place`` (only with ``"out"``): input positions ``out`` may share memory with,
    because the kernel reads each element of that input before writing the same element
    of ``out`` (ufuncs); ``"all"``: every input of the output's shape (a generated loop
    over the output reading each operand at the index it writes). With ``"outs"``: a
    function ``(params, n_inputs) -> positions per result``, as the call's parameters say
    (a group of generated loops: the inputs only the loop writing that result reads).
    """
    kind: str = "opaque"
    in_place: tuple[int, ...] | str | Callable = ()

    KINDS = ("out", "view", "fresh", "outs", "opaque")

    def __post_init__(self) -> None:
        if self.kind not in self.KINDS:
            raise PluginError("bad kernel memory kind", expected=" | ".join(self.KINDS),
                              got=repr(self.kind))
        if self.kind == "outs":
            if not callable(self.in_place):
                raise PluginError("kind 'outs' needs its in-place positions' function",
                                  got=repr(self.in_place),
                                  expected="KernelMemory.writes_outs(fn(params, n_inputs))")
            return
        if self.in_place and self.kind != "out":
            raise PluginError("in-place positions need kind 'out'", got=repr(self.kind),
                              expected="KernelMemory.writes_out(in_place=...)")
        if self.in_place != "all" and not all(isinstance(i, int) and i >= 0
                                              for i in self.in_place):
            raise PluginError("bad in-place positions", expected="non-negative ints",
                              got=repr(self.in_place))

    @classmethod
    def writes_out(cls, in_place: tuple[int, ...] | str = ()) -> "KernelMemory":
        return cls("out", in_place if in_place == "all" else tuple(in_place))

    @classmethod
    def writes_outs(cls, in_place: Callable[[dict, int], tuple]) -> "KernelMemory":
        return cls("outs", in_place)

    def positions(self, n_inputs: int, params: dict | None = None) -> tuple:
        """The in-place positions of a call with ``n_inputs`` operands (kind ``"outs"``: a
        tuple of them per result, for a call with these ``params``)."""
        if self.kind == "outs":
            return tuple(tuple(p) for p in self.in_place(params or {}, n_inputs))
        return tuple(range(n_inputs)) if self.in_place == "all" else self.in_place


KernelMemory.OUT = KernelMemory("out")
KernelMemory.VIEW = KernelMemory("view")
KernelMemory.FRESH = KernelMemory("fresh")
KernelMemory.OPAQUE = KernelMemory("opaque")


class KernelRegistry(Registry[Callable]):
    """What ``sporeling_add_kernels`` fills; entries are named ``"backend.primitive"``."""

    def __init__(self) -> None:
        super().__init__("kernel")
        self._by_backend: dict[str, dict[str, Callable]] = defaultdict(dict)
        self._parts: dict[str, tuple[str, str]] = {}  # "backend.primitive" -> the two
        # memory facts travel with the kernel (kept on it, so a rollback restores both)
        self._memory: dict[str, dict[str, KernelMemory]] = defaultdict(dict)

    def add_kernel(self, backend: str, primitive: str, fn: Callable, *,
                   memory: KernelMemory | None = None, replace: bool = False) -> None:
        """Register ``fn`` as ``backend``'s kernel for ``primitive``; ``memory`` declares
        what it does with memory (default :attr:`KernelMemory.OPAQUE`)."""
        for what, name in (("backend", backend), ("primitive", primitive)):
            if not isinstance(name, str) or not name:
                raise PluginError(f"bad {what} name for a kernel from plugin {self.source!r}",
                                  expected="a non-empty string", got=repr(name))
        if not callable(fn):
            raise PluginError(f"kernel {backend}.{primitive} from plugin {self.source!r} "
                              f"is not callable", expected="a function", got=repr(fn))
        if memory is not None and not isinstance(memory, KernelMemory):
            raise PluginError(f"kernel {backend}.{primitive} from plugin {self.source!r} "
                              f"declares its memory wrongly", expected="a KernelMemory",
                              got=repr(memory))
        name = f"{backend}.{primitive}"
        self._parts[name] = (backend, primitive)
        self.add(name, _Entry(fn, memory or KernelMemory.OPAQUE), replace=replace)

    def _changed(self, name: str) -> None:
        # the lookup table follows adds, replacements and a dropped plugin's rollback
        backend, primitive = self._parts[name]
        entry = self._items.get(name)
        if entry is None:
            self._by_backend[backend].pop(primitive, None)
            self._memory[backend].pop(primitive, None)
        else:
            self._by_backend[backend][primitive] = entry.fn
            self._memory[backend][primitive] = entry.memory

    def lookup(self, backend: str, primitive: str) -> Callable | None:
        """The kernel, or ``None``."""
        table = self._by_backend.get(backend)
        return None if table is None else table.get(primitive)

    def memory(self, backend: str, primitive: str) -> KernelMemory:
        """What ``backend``'s kernel for ``primitive`` declared about memory
        (:attr:`KernelMemory.OPAQUE` when undeclared or absent)."""
        table = self._memory.get(backend)
        return KernelMemory.OPAQUE if table is None else \
            table.get(primitive, KernelMemory.OPAQUE)

    def primitives(self, backend: str) -> list[str]:
        """Sorted primitive names that ``backend`` has kernels for."""
        return sorted(self._by_backend.get(backend, ()))


class _Entry:
    """A registered kernel with its memory facts (what the registry's entries hold)."""
    __slots__ = ("fn", "memory")

    def __init__(self, fn: Callable, memory: KernelMemory) -> None:
        self.fn, self.memory = fn, memory

    def __repr__(self) -> str:
        return f"<kernel {getattr(self.fn, '__name__', self.fn)!s} {self.memory.kind}>"


declare_registry("sporeling_add_kernels", KernelRegistry)


def get_kernels() -> KernelRegistry:
    """Every plugin's kernels, collected once per plugin host."""
    return get_plugin_host().registry("sporeling_add_kernels")
