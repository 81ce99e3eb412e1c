"""The white, black and promote lists: which Cells and primitives run in low precision.

Entries are **Cell classes** (applied at a Cell's boundary: inputs and parameters cast
when it is called) and **primitive names** (applied per operation, by the op-level policy
of :mod:`.policy` and by the graph pass of :mod:`.graph_passes`). MindSpore mixes
``nn.Dense`` and ``ops.MatMul`` in one list the same way.

* white: computed in the low dtype (float16 or bfloat16) -- contractions, where the
  16-bit speed and memory gain is and where float32 accumulation keeps them accurate;
* black: kept in float32 -- exponentials, logarithms, powers, normalisations, softmax,
  reductions and losses, whose range or accumulated error 16 bits do not hold;
* promote: run in the widest type of their operands (Sporeling's op functions already
  promote mixed operands, so these need no cast of their own).

A primitive's class is one of its traits, declared where it is defined
(``Primitive("matmul", amp="white")``; a plugin's primitives alike), and these lists are read
off the installed primitives.

    >>> "matmul" in get_white_list() and "softmax" in get_black_list()
    True
    >>> try:
    ...     resolve_entries(["matmul", "nope"], "white_list")
    ... except SporelingError as exc:
    ...     print(str(exc)[:99])
    custom_mixed_precision: white_list entry names no Cell class or primitive; expected a Cell subclass
"""
from __future__ import annotations

from sporeling.compiler import primitives
from sporeling.compiler.core.primitive import AMP_CLASSES
from sporeling.core import SporelingError
from sporeling.expression import nn

__all__ = ["primitives_in_class", "white_primitives", "black_primitives",
           "promote_primitives", "never_cast", "WHITE_CELLS", "BLACK_CELLS",
           "get_white_list", "get_black_list", "resolve_entries"]

_CACHE: dict[str, tuple] = {}  # class -> (registry, its size, names)


def primitives_in_class(amp_class: str) -> frozenset:
    """Names of the installed primitives (plugins' included) that declare
    ``amp=amp_class`` where they are defined (``Primitive("exp", amp="black")``)."""
    if amp_class not in AMP_CLASSES:
        raise SporelingError("unknown AMP class", op="amp",
                             expected="one of " + ", ".join(AMP_CLASSES), got=repr(amp_class))
    registry = primitives()
    hit = _CACHE.get(amp_class)
    if hit is None or hit[0] is not registry or hit[1] != len(registry):
        names = frozenset(n for n, p in registry.items() if p.amp == amp_class)
        hit = _CACHE[amp_class] = (registry, len(registry), names)
    return hit[2]


def white_primitives() -> frozenset:
    """Contractions (``amp="white"``): computed in the low dtype (the NumPy kernels
    accumulate in float32)."""
    return primitives_in_class("white")


def black_primitives() -> frozenset:
    """``amp="black"``, kept in float32: exponentials, logs, powers, softmax, normalisation,
    reductions, and the fused softmax cross entropy (a loss) with its gradient."""
    return primitives_in_class("black")


def promote_primitives() -> frozenset:
    """``amp="promote"``, several float operands: the op functions cast them to the widest
    type first."""
    return primitives_in_class("promote")


def never_cast() -> frozenset:
    """``amp="never"``, never recast by a level (O2/O3 included): casts themselves, control
    flow (its sub-graphs are converted inside), random draws, and tests whose answer a
    16-bit copy would change (``isfinite`` of 1e5 is True in float32, False in float16 --
    overflow checks must see the float32 values)."""
    return primitives_in_class("never")


_FORMER_NAMES = {"WHITE_PRIMITIVES": "white", "BLACK_PRIMITIVES": "black",
                 "PROMOTE_PRIMITIVES": "promote", "NEVER_CAST": "never"}


def __getattr__(name: str):
    # the former constant sets, now read off the primitives' traits when asked for
    if name in _FORMER_NAMES:
        return primitives_in_class(_FORMER_NAMES[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


WHITE_CELLS = (nn.Dense, nn.Conv1d, nn.Conv2d, nn.Conv2dTranspose, nn.PReLU,
               nn.MultiheadAttention, nn.LSTM, nn.GRU)
"""Cells computed in the low dtype at O1."""

BLACK_CELLS = (nn.BatchNorm1d, nn.BatchNorm2d, nn.LayerNorm, nn.GroupNorm, nn.Softmax,
               nn.LogSoftmax, nn.LossBase)
"""Cells kept in float32 at O2 (``LossBase`` covers every loss)."""


def get_white_list() -> list:
    """A copy of the default white list: Cell classes, then primitive names."""
    return [*WHITE_CELLS, *sorted(white_primitives())]


def get_black_list() -> list:
    """A copy of the default black list: Cell classes, then primitive names."""
    return [*BLACK_CELLS, *sorted(black_primitives())]


def _primitive_name(entry) -> str | None:
    if isinstance(entry, str):
        return entry if entry in primitives() else None
    name = getattr(entry, "name", None)  # a Primitive object
    if isinstance(name, str) and primitives().get(name) is entry:
        return name
    return None


def resolve_entries(entries, what: str, op: str = "custom_mixed_precision"):
    """``(cell classes, primitive names)`` of a user list; an entry that names neither is
    an error naming it and the valid ones."""
    if isinstance(entries, (str, type)) or not hasattr(entries, "__iter__"):
        raise SporelingError(f"{what} must be a list", op=op,
                             expected="a list of Cell classes and primitive names",
                             got=repr(entries))
    cells, prims = [], set()
    for entry in entries:
        if isinstance(entry, type) and issubclass(entry, nn.Cell):
            cells.append(entry)
            continue
        name = _primitive_name(entry)
        if name is None:
            names = sorted(primitives())
            raise SporelingError(
                f"{what} entry names no Cell class or primitive", op=op,
                expected="a Cell subclass (e.g. nn.Dense) or a primitive name",
                got=repr(entry),
                hint="valid primitive names: " + ", ".join(names))
        prims.add(name)
    return tuple(cells), frozenset(prims)
