"""The types ``graph.json``'s fields must have (``docs/sir-format.md``), checked while
reading: each check returns the value or raises a :class:`SIRError` naming the file and
the field (``graph.equations[3].outputs[0].shape``)."""
from __future__ import annotations

import inspect
import keyword
import math
import reprlib

import numpy as np

from sporeling.core.dtypes import ALL_DTYPES

from .errors import SIRError

__all__ = ["Fields", "show", "accepted_params"]

MAX_NDIM = 64  # NumPy's limit
_MAX_ELEMENTS = 2**62  # element counts (and byte sizes) stay within int64
_MAX_INT = 2**63 - 1
_DTYPES: dict[str, np.dtype] = {}


def show(value) -> str:
    """A short repr, bounded however large ``value`` is."""
    return reprlib.repr(value)


def _dtype_named(name: str) -> np.dtype | None:
    """The numeric dtype written as ``name`` (``np.dtype(x).name``), else None: no object,
    string, void or byte-swapped dtypes."""
    if name not in _DTYPES:
        try:
            dtype = np.dtype(name)
        except (TypeError, ValueError):
            return None
        ok = dtype.name == name and (dtype.kind in "biufc" or dtype in ALL_DTYPES)
        if not ok:
            return None
        _DTYPES[name] = dtype
    return _DTYPES[name]


class Fields:
    """Checks for one file (``where``)."""

    def __init__(self, where: str):
        self.where = where

    def fail(self, message: str, field: str, **kw) -> SIRError:
        return SIRError(message, where=self.where, field=field, **kw)

    def object(self, value, field: str, keys: set, optional: set = frozenset()) -> dict:
        """A JSON object with exactly ``keys`` (and any of ``optional``)."""
        if not isinstance(value, dict):
            raise self.fail("not a JSON object", field, got=show(value),
                            expected="an object with " + ", ".join(sorted(keys)))
        if value.keys() == keys:  # the common case, kept cheap
            return value
        missing, extra = sorted(keys - value.keys()), sorted(value.keys() - keys - optional)
        if missing or extra:
            raise self.fail("missing keys" if missing else "unknown keys", field,
                            got=(missing or extra)[:8], expected=", ".join(sorted(keys)) +
                            "".join(f" [{k}]" for k in sorted(optional)))
        return value

    def mapping(self, value, field: str) -> dict:
        """A JSON object with any keys."""
        if not isinstance(value, dict):
            raise self.fail("not a JSON object", field, got=show(value))
        return value

    def array(self, value, field: str, length: int | None = None) -> list:
        if not isinstance(value, list) or (length is not None and len(value) != length):
            raise self.fail("not a JSON list" if length is None else "a malformed list",
                            field, expected="a list" if length is None else
                            f"a list of {length}", got=show(value))
        return value

    def string(self, value, field: str) -> str:
        if not isinstance(value, str):
            raise self.fail("not a string", field, got=show(value))
        return value

    def integer(self, value, field: str, low: int = 0, high: int = _MAX_INT) -> int:
        """An int in ``[low, high]``; ``true`` and ``1.0`` are not ints."""
        if type(value) is not int or not low <= value <= high:
            raise self.fail("not an integer in range", field, expected=f"{low}..{high}",
                            got=show(value))
        return value

    def shape(self, value, field: str) -> tuple[int, ...]:
        dims = tuple(self.array(value, field))
        if not all(type(n) is int and 0 <= n <= _MAX_ELEMENTS for n in dims):
            for i, n in enumerate(dims):  # which one, for the message
                self.integer(n, f"{field}[{i}]", 0, _MAX_ELEMENTS)
        if len(dims) > MAX_NDIM or math.prod(dims) > _MAX_ELEMENTS:
            raise self.fail("an impossible shape", field, got=show(value),
                            expected=f"at most {MAX_NDIM} axes, {_MAX_ELEMENTS} elements")
        return dims

    def dtype(self, value, field: str) -> np.dtype:
        dtype = _dtype_named(value) if isinstance(value, str) else None
        if dtype is None:
            raise self.fail("not a numeric dtype name", field, got=show(value),
                            expected="a NumPy name such as float32, int64, bool, bfloat16")
        return dtype

    def parameter_name(self, name: str, field: str, accepted: frozenset | None) -> str:
        """A keyword argument name: lowering turns them into generated code."""
        if not name.isidentifier() or keyword.iskeyword(name) or name == "out":
            raise self.fail("a bad parameter name", field, got=repr(name),
                            expected="a Python identifier, not a keyword or 'out'")
        if accepted is not None and name not in accepted:
            raise self.fail("an unknown parameter", field, got=repr(name),
                            expected=", ".join(sorted(accepted)) or "no parameters")
        return name


def _keywords(fn, operands: int) -> frozenset | None:
    """The names ``fn`` takes by keyword after its first ``operands`` positional
    parameters; None when it takes any (``**kw``) or has no signature."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return None
    if any(p.kind is p.VAR_KEYWORD for p in params):
        return None
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return frozenset(p.name for p in params if p.kind is p.KEYWORD_ONLY or (
        p.kind is p.POSITIONAL_OR_KEYWORD and p in positional[operands:])) - {"out"}


def accepted_params(prim, operands: int) -> frozenset | None:
    """The parameter names an equation of ``prim`` with ``operands`` inputs may carry:
    those both its abstract rule and what runs it (its NumPy kernel, called with the
    backend first, or its Python impl) take by keyword. None where both take any."""
    from sporeling.runtime.kernel_registry import get_kernels
    kernel = get_kernels().lookup("numpy", prim.name)
    runner = _keywords(kernel, 1 + operands) if kernel is not None else (
        _keywords(prim.impl, operands) if prim.impl is not None else None)
    sets = [s for s in (_keywords(prim.abstract_eval, operands), runner) if s is not None]
    return frozenset.intersection(*sets) if sets else None
