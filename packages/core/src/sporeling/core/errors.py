"""Sporeling's error hierarchy.

Every error says *what was expected*, *what came* and *where* (an op name, a shape, a
plugin, the user's source line). Build them with keywords so the message stays uniform::

    >>> raise ShapeError("operands do not broadcast", op="add",
    ...                  expected="shapes equal or 1 per axis", got="(2, 3) and (4, 3)")
    Traceback (most recent call last):
    ...
    sporeling.core.errors.ShapeError: add: operands do not broadcast; expected shapes equal or 1 per axis, got (2, 3) and (4, 3)

Each class also derives from the builtin exception a Python user would catch for the same
mistake (``ValueError``, ``TypeError``, ``MemoryError``, ...).
"""
from __future__ import annotations

__all__ = [
    "SporelingError", "ShapeError", "DTypeError", "ContextError", "PluginError",
    "DuplicateNameError", "OutOfMemoryError", "SizeError", "ArgumentError",
]


class SporelingError(Exception):
    """Base of every error Sporeling raises on purpose."""

    def __init__(self, message: str = "", *, op: str | None = None, expected=None,
                 got=None, where: str | None = None, hint: str | None = None):
        self.op, self.expected, self.got, self.where, self.hint = op, expected, got, where, hint
        self.detail = message
        super().__init__(self._compose(message))

    def _compose(self, message: str) -> str:
        text = f"{self.op}: {message}" if self.op else message
        parts = []
        if self.expected is not None:
            parts.append(f"expected {self.expected}")
        if self.got is not None:
            parts.append(f"got {self.got}")
        if parts:
            text = f"{text}; {', '.join(parts)}" if text else ", ".join(parts)
        if self.where:
            text = f"{text} (at {self.where})"
        if self.hint:
            text = f"{text}. {self.hint[:1].upper()}{self.hint[1:]}"
        return text


class ShapeError(SporelingError, ValueError):
    """Operands' shapes do not fit an operation."""


class DTypeError(SporelingError, TypeError):
    """A dtype is unknown or not accepted by an operation."""


class ArgumentError(SporelingError, TypeError, ValueError):
    """A public function or constructor got an argument it cannot take: ``None`` or a string
    where a tensor or size belongs, a NaN, negative or absurdly large size or axis.

    Both a ``TypeError`` and a ``ValueError`` (as ``numpy.exceptions.AxisError`` is both a
    ``ValueError`` and an ``IndexError``), so code that caught either builtin keeps working."""


class ContextError(SporelingError, ValueError):
    """An unknown context key or a bad value for a known one."""


class SizeError(SporelingError, ValueError):
    """A memory size string such as ``"1XB"`` or ``"-1GB"`` that cannot be parsed."""


class PluginError(SporelingError, RuntimeError):
    """A plugin failed to load, or contributed something invalid (a name twice, ...)."""


class DuplicateNameError(PluginError):
    """Two plugins registered one name; ``kind``, ``name``, ``first`` and ``second`` (the
    plugins, in registration order) say which."""

    def __init__(self, kind: str, name: str, first: str, second: str):
        self.kind, self.name, self.first, self.second = kind, name, first, second
        super().__init__(f"{kind} {name!r} is registered twice", expected="one plugin per name",
                         got=f"{first!r} and {second!r}")


class OutOfMemoryError(SporelingError, MemoryError):
    """The memory pool cannot serve a request within ``max_device_memory``."""
