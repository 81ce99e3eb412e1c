"""Kernel providers stacked on one device target: a fast library serves the primitives it
has kernels for, NumPy's kernels the rest, on NumPy's buffers and pool.

A plugin backend subclasses :class:`StackedBackend` and registers its own kernels under its
name; :meth:`provider` says which backend's kernel serves a primitive (``sporeling kernels``
prints it for every primitive). The first time NumPy stands in for a primitive it is said
once in the backend's log (``log_name``, default ``sporeling.<name>``), at INFO.

    >>> class Fast(StackedBackend):
    ...     name = "fast"
    >>> Fast().provider("add")        # no kernel of its own: NumPy's serves
    'numpy'
"""
from __future__ import annotations

import logging

from .backend import get_backends
from .kernel_registry import KernelMemory, get_kernels
from .numpy_backend import NumpyBackend

__all__ = ["StackedBackend"]

_TITLES = {"numpy": "NumPy"}


class StackedBackend(NumpyBackend):
    """NumPy's buffers; this backend's kernels first, then NumPy's."""

    device_target = "CPU"
    below = NumpyBackend.name  # the provider that serves what this backend lacks
    log_name: str | None = None

    def __init__(self, pool=None) -> None:
        super().__init__(pool)
        self.said: set[str] = set()  # primitives already reported as served by `below`
        self._log = logging.getLogger(self.log_name or f"sporeling.{self.name}")

    def chain(self) -> tuple[str, ...]:
        """The providers this backend tries, in order: itself, then ``below`` and what
        ``below`` stacks on (a backend may stack on another stacked backend)."""
        names, below, backends = [self.name], self.below, get_backends()
        while below and below not in names:
            names.append(below)
            below = getattr(backends.instance(below), "below", None) \
                if below in backends else None
        return tuple(names)

    def provider(self, primitive: str) -> str:
        """The name of the backend whose kernel runs ``primitive`` here."""
        kernels = get_kernels()
        for k, name in enumerate(self.chain()):
            if kernels.lookup(name, primitive) is not None:
                if k and primitive not in self.said:
                    self.said.add(primitive)
                    self._log.info("%s backend: no kernel for %r, running %s's", self.name,
                                   primitive, _TITLES.get(name, name))
                return name
        return self.name  # none: Backend.kernel names what is missing

    def below_provider(self, primitive: str) -> str:
        """The name of the backend below this one whose kernel would run ``primitive``."""
        kernels = get_kernels()
        for name in self.chain()[1:]:
            if kernels.lookup(name, primitive) is not None:
                return name
        return self.name

    def below_kernel(self, primitive: str):
        """The kernel the providers below this backend's own would run for ``primitive``
        (a kernel of its own hands a call it declines to it)."""
        name = self.below_provider(primitive)
        return get_kernels().lookup(name, primitive) if name != self.name \
            else super().kernel(primitive)

    def kernel(self, primitive: str):
        owner = self.provider(primitive)
        return get_kernels().lookup(owner, primitive) if owner != self.name \
            else super().kernel(primitive)

    def has_kernel(self, primitive: str) -> bool:
        kernels = get_kernels()
        return any(kernels.lookup(name, primitive) is not None for name in self.chain())

    def kernel_memory(self, primitive: str) -> KernelMemory:
        return get_kernels().memory(self.provider(primitive), primitive)
