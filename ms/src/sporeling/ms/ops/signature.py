"""``ops.signature``: MindSpore's primitive argument signatures (``make_sig``, ``sig_rw``,
``sig_kind``, ``sig_dtype``), which a Python-defined Primitive lists in
``__mindspore_signature__``. Sporeling reads arguments from Python's own signature, so these
are descriptive records."""
from __future__ import annotations

import enum
from typing import Any, NamedTuple

__all__ = ["Signature", "make_sig", "sig_rw", "sig_kind", "sig_dtype"]


class sig_rw(enum.IntEnum):  # noqa: N801 - MindSpore's name
    """Whether the primitive reads or writes the argument (a Parameter it updates)."""
    RW_READ = 0
    RW_WRITE = 1
    RW_REF = 2


class sig_kind(enum.IntEnum):  # noqa: N801
    """The argument's kind, as Python's ``inspect.Parameter`` kinds."""
    KIND_POSITIONAL_KEYWORD = 0
    KIND_VAR_POSITIONAL = 1
    KIND_KEYWORD_ONLY = 2
    KIND_VAR_KEYWARD = 3
    KIND_EMPTY_DEFAULT_VALUE = 4


class sig_dtype(enum.IntEnum):  # noqa: N801
    """The dtype group: arguments sharing ``T`` are promoted to one dtype."""
    T = 0
    T1 = 1
    T2 = 2
    T3 = 3
    T4 = 4
    T5 = 5
    T6 = 6
    T7 = 7
    T8 = 8
    T9 = 9
    T_EMPTY_DEFAULT_VALUE = 10


class Signature(NamedTuple):
    name: str
    rw: sig_rw
    kind: sig_kind
    default: Any
    dtype: sig_dtype


def make_sig(name="var", rw=sig_rw.RW_READ, kind=sig_kind.KIND_POSITIONAL_KEYWORD,
             default=sig_kind.KIND_EMPTY_DEFAULT_VALUE, dtype=sig_dtype.T_EMPTY_DEFAULT_VALUE):
    """One argument's signature."""
    return Signature(name, sig_rw(rw), sig_kind(kind), default, sig_dtype(dtype))
