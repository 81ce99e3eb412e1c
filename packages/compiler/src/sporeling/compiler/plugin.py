"""The compiler's built-in plugin: its hookspecs, its context keys and its passes --
contributed through the same hooks a third-party plugin uses."""
from __future__ import annotations

from pathlib import Path

from sporeling.core import impl

from . import hookspecs

HOOKSPECS = hookspecs


def _save_graphs(value):
    if isinstance(value, bool):
        return value
    if isinstance(value, (str, Path)) and str(value):
        return str(value)
    raise TypeError("must be a bool or a directory")


@impl
def sporeling_add_context_options(options) -> None:
    # the name this package had for core's jit_level (one knob: see jit_levels.py)
    options.add_alias("graph_opt_level", "jit_level",
                      doc="Another name of jit_level (which graph passes run), kept for "
                          "existing scripts.")
    options.add_option("save_graphs", False, convert=_save_graphs,
                       doc="Write the IR before and after each pass: False, True "
                           "(./sporeling_ir) or a directory (SPORELING_DUMP_IR wins).",
                       valid="a bool or a directory path")
    options.add_option("recompute", False, choices={"True": True, "False": False},
                       doc="Recompute cheap elementwise values in the backward part of "
                           "compiled graphs instead of keeping them (less memory).",
                       valid="True or False")


@impl
def sporeling_add_passes(passes) -> None:
    from .passes import BUILTIN_PASSES
    for p in BUILTIN_PASSES:
        passes.add_pass(p)


@impl
def sporeling_add_primitives(primitives) -> None:
    from . import ops, quant  # noqa: F401  (defining the ops defines the built-in primitives)
    from .passes import fused  # noqa: F401
    primitives.add_defined_in("sporeling.compiler")
