"""The precision levels and dtypes AMP accepts, checked with errors naming the valid ones.

    >>> check_level("O2")
    'O2'
    >>> check_dtype("bfloat16")
    dtype(bfloat16)
"""
from __future__ import annotations

from sporeling.core import SporelingError, dtypes

__all__ = ["LEVELS", "LOW_DTYPES", "check_level", "check_dtype"]

LEVELS = ("O0", "O1", "O2", "O3", "auto")
"""O0: float32; O1: the white list low; O2: all but the black list low; O3: all low;
auto: per primitive by the white, black and promote lists."""

LOW_DTYPES = (dtypes.float16, dtypes.bfloat16)


def check_level(level, op: str = "auto_mixed_precision") -> str:
    """``level`` if it is one of :data:`LEVELS`, else an error naming them."""
    if not isinstance(level, str) or level not in LEVELS:
        raise SporelingError("unknown amp_level", op=op,
                             expected="one of " + ", ".join(repr(v) for v in LEVELS),
                             got=repr(level))
    return level


def check_dtype(dtype, op: str = "auto_mixed_precision"):
    """``dtype`` as a NumPy dtype if it is float16 or bfloat16, else an error."""
    try:
        d = dtypes.dtype(dtype)
    except Exception:
        d = None
    if d not in LOW_DTYPES:
        raise SporelingError("unsupported low-precision dtype", op=op,
                             expected="float16 or bfloat16", got=repr(dtype))
    return d
