"""The compiler's own passes, as its plugin contributes them."""
from __future__ import annotations

from .base import Pass
from .cse import CSE
from .dce import DCE
from .fold import FOLD
from .fusion import FUSION
from .infer import INFER_TYPES
from .recompute import RECOMPUTE
from .simplify import SIMPLIFY

__all__ = ["BUILTIN_PASSES"]

BUILTIN_PASSES: tuple[Pass, ...] = (INFER_TYPES, FOLD, SIMPLIFY, CSE, DCE, FUSION, RECOMPUTE)
"""In stage order: canonicalize (infer_types), simplify (fold_constants, simplify, cse,
dce), fusion (fuse_elementwise), cleanup (recompute, off unless ``recompute=True``)."""
