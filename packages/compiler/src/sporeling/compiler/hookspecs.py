"""Extension points owned by ``sporeling.compiler``."""
from __future__ import annotations

from typing import TYPE_CHECKING

from sporeling.core import hookspec

if TYPE_CHECKING:
    from .core import PrimitiveRegistry
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


@hookspec
def sporeling_add_primitives(primitives: "PrimitiveRegistry") -> None:
    """Contribute primitives: new ops, with their rules attached where they are defined.

    Define each with ``Primitive(name)`` and its ``def_abstract_eval``/``def_backward``
    (and batching) rules in the plugin's own module, then call
    ``primitives.add_primitive(p, ...)`` (or ``primitives.add_defined_in("my.package")``).
    Kernels for them come through ``sporeling_add_kernels``. A name another plugin has
    drops the later plugin (``sporeling plugins`` names both). ``sporeling.compiler.primitives()``
    lists everything contributed, so exported graphs using a plugin's ops load by name.
    """
