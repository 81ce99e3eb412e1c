"""The plugin module the ``bn_fold`` entry point names: it adds the pass."""
from __future__ import annotations

from sporeling.core import impl

from .fold import BN_FOLD


@impl
def sporeling_add_passes(passes) -> None:
    passes.add_pass(BN_FOLD)
