"""Extension points owned by ``sporeling.compiler``."""
from __future__ import annotations

from typing import TYPE_CHECKING

from sporeling.core import hookspec

if TYPE_CHECKING:
    from .passes import PassRegistry


@hookspec
def sporeling_add_passes(passes: "PassRegistry") -> None:
    """Contribute graph passes to the pass manager.

    Call ``passes.add_pass(Pass(name, run, stage=..., min_level=..., order=...))`` where
    ``run(graph, ctx) -> graph`` returns a new graph (or the same one when nothing changed);
    ``stage`` is one of ``canonicalize``, ``simplify``, ``fusion``, ``cleanup``, and
    ``min_level`` is ``"O0"`` only for passes correctness needs. A rewrite table (primitive
    name -> rule) becomes a pass with ``rewrite_pass``. A name registered twice drops the later
    plugin, recorded as failed naming both (``replace=True`` overrides on purpose).
    """
