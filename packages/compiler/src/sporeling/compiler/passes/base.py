"""What a pass is, what it receives, and the registry plugins add passes to.

A :class:`Pass` is a named value: a function ``run(graph, ctx) -> graph`` plus where it runs
(its stage and order) and from which optimisation level on. Passes treat graphs as
immutable: they build new equation lists (sharing untouched Vars and Equations) and return
the graph they were given when nothing changed, which is how the manager sees a fixpoint.

    >>> registry = PassRegistry()
    >>> registry.add_pass(Pass("nothing", lambda graph, ctx: graph, stage="simplify"))
    >>> registry["nothing"].min_level
    'O1'
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from sporeling.core import PluginError, Registry
from sporeling.core.plugin import JIT_LEVELS

from ..ir import Graph

__all__ = ["STAGES", "LEVELS", "Pass", "PassContext", "PassRegistry"]

STAGES = ("canonicalize", "simplify", "fusion", "cleanup")
"""The stages in the order they run; ``simplify`` repeats until nothing changes."""

LEVELS = JIT_LEVELS
"""``jit_level``'s values: O0 runs only what correctness needs (shape and dtype inference,
verification); O1 all; O2 O1's passes too (and any pass declared for O2 only: native code
is chosen at lowering, see :mod:`sporeling.compiler.jit_levels`)."""


@dataclass
class PassContext:
    """What a pass may consult: the level, the options the manager read from the context
    (``recompute``...), the backend the graph will be lowered on (``backend``; None: the
    one the context's device target chooses), and ``stats`` where passes count what they
    did (for tests and ``SPORELING_DUMP_IR``)."""
    level: str = "O1"
    options: dict[str, Any] = field(default_factory=dict)
    stats: dict[str, int] = field(default_factory=dict)
    backend: Any = None

    def lowering_backend(self):
        """The backend the graph will be lowered on."""
        if self.backend is None:
            from sporeling.core import get_context
            from sporeling.runtime import get_backend
            self.backend = get_backend(get_context("device_target"))
        return self.backend

    def count(self, what: str, n: int = 1) -> None:
        """Add ``n`` to ``stats[what]``."""
        self.stats[what] = self.stats.get(what, 0) + n


@dataclass(frozen=True)
class Pass:
    """``run(graph, ctx) -> graph`` in ``stage`` (ordered by ``order`` within it), from
    ``min_level`` on; ``enabled(ctx)``, when given, can switch it off (a context key)."""
    name: str
    run: Callable[[Graph, PassContext], Graph]
    stage: str = "simplify"
    min_level: str = "O1"
    order: int = 100
    doc: str = ""
    enabled: Callable[[PassContext], bool] | None = None

    def __post_init__(self):
        if self.stage not in STAGES:
            raise PluginError(f"pass {self.name!r} names an unknown stage",
                              expected=f"one of {', '.join(STAGES)}", got=repr(self.stage))
        if self.min_level not in LEVELS:
            raise PluginError(f"pass {self.name!r} names an unknown level",
                              expected=f"one of {', '.join(LEVELS)}", got=repr(self.min_level))

    def applies(self, ctx: PassContext) -> bool:
        """Whether this pass runs at ``ctx.level`` with ``ctx.options``."""
        if LEVELS.index(ctx.level) < LEVELS.index(self.min_level):
            return False
        return self.enabled is None or bool(self.enabled(ctx))


class PassRegistry(Registry[Pass]):
    """What ``sporeling_add_passes`` fills: pass name -> :class:`Pass`."""

    def __init__(self):
        super().__init__("pass")

    def add_pass(self, p: Pass, *, replace: bool = False) -> None:
        """Register ``p`` under its name (``replace=True`` overrides a pass on purpose)."""
        if not isinstance(p, Pass):
            raise PluginError(f"plugin {self.source!r} added something that is not a Pass",
                              expected="a sporeling.compiler.passes.Pass",
                              got=type(p).__name__)
        self.add(p.name, p, replace=replace)

    def in_stage(self, stage: str) -> list[Pass]:
        """The passes of ``stage`` in running order (``order``, then name)."""
        return sorted((p for p in self._items.values() if p.stage == stage),
                      key=lambda p: (p.order, p.name))
