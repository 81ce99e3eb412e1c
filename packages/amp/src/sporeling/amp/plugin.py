"""The plugin module the ``amp`` entry point names: the context keys ``amp_level`` and
``amp_dtype``, and the Graph-mode cast passes."""
from __future__ import annotations

from sporeling.core import impl


def _level(value):
    from .levels import check_level
    try:
        return check_level(value, "set_context")
    except Exception as exc:
        raise ValueError(str(exc)) from None


def _dtype(value):
    from .levels import check_dtype
    try:
        return check_dtype(value, "set_context")
    except Exception as exc:
        raise ValueError(str(exc)) from None


@impl
def sporeling_add_context_options(options) -> None:
    options.add_option("amp_level", "O0", convert=_level,
                       doc="Graph mode: the mixed-precision level every compiled graph is "
                           "converted to by the amp_cast_insertion pass (O0: none).",
                       valid='"O0", "O1", "O2", "O3" or "auto"')
    options.add_option("amp_dtype", "float16", convert=_dtype,
                       doc="The low-precision dtype of amp_level: float16 or bfloat16.",
                       valid="float16 or bfloat16")


@impl
def sporeling_add_passes(passes) -> None:
    from .graph_passes import CAST_ELIMINATION, CAST_INSERTION
    passes.add_pass(CAST_INSERTION)
    passes.add_pass(CAST_ELIMINATION)
