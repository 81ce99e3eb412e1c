"""Memory sizes as users write them: ``"512MB"``, ``"1GB"``, ``"1.5G"``, ``4096``.

Units are binary (1 KB = 1024 bytes), as in MindSpore's ``mempool_block_size``.

    >>> parse_size("512MB")
    536870912
    >>> format_size(3 * 1024**3)
    '3.00 GB'
"""
from __future__ import annotations

import re

from .errors import SizeError

__all__ = ["parse_size", "format_size"]

_UNITS = {"": 1, "B": 1, "K": 1024, "KB": 1024, "M": 1024**2, "MB": 1024**2,
          "G": 1024**3, "GB": 1024**3, "T": 1024**4, "TB": 1024**4}
_PATTERN = re.compile(r"^\s*([+-]?\d+(?:\.\d+)?)\s*([A-Za-z]*)\s*$")


def parse_size(value: str | int, *, name: str = "size") -> int:
    """Return a size in bytes; ``name`` says which setting is being parsed (for the error)."""
    if isinstance(value, bool):
        raise SizeError(f"bad {name}", expected="an int or a string like '512MB' or '1GB'",
                        got=repr(value))
    if isinstance(value, int):
        number, unit = value, ""
    elif isinstance(value, str) and (match := _PATTERN.match(value)):
        number, unit = float(match.group(1)), match.group(2).upper()
    else:
        raise SizeError(f"bad {name}", expected="an int or a string like '512MB' or '1GB'",
                        got=repr(value))
    if unit not in _UNITS:
        raise SizeError(f"bad {name}: unknown unit {unit!r} in {value!r}",
                        expected=f"one of {', '.join(u for u in _UNITS if u)}", got=repr(value))
    size = int(number * _UNITS[unit])
    if size <= 0:
        raise SizeError(f"bad {name}", expected="a positive size", got=repr(value))
    return size


def format_size(nbytes: int) -> str:
    """A human-readable size (binary units)."""
    for unit in ("B", "KB", "MB", "GB"):
        if abs(nbytes) < 1024 or unit == "GB":
            return f"{nbytes} B" if unit == "B" else f"{nbytes:.2f} {unit}"
        nbytes /= 1024
