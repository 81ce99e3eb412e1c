"""Extension points owned by ``sporeling.runtime``."""
from __future__ import annotations

from typing import TYPE_CHECKING

from sporeling.core import hookspec

if TYPE_CHECKING:
    from .backend import BackendRegistry
    from .kernel_registry import KernelRegistry


@hookspec
def sporeling_add_backends(backends: "BackendRegistry") -> None:
    """Contribute backends (devices that hold buffers and run kernels).

    Call ``backends.add(name, factory)`` where ``factory()`` builds a
    :class:`~sporeling.runtime.backend.Backend` (usually the class itself); it is built
    once per plugin host, on first use. A plugin registering a name another plugin has is
    dropped (recorded in ``sporeling plugins`` naming both) with all it added.
    """


@hookspec
def sporeling_add_kernels(kernels: "KernelRegistry") -> None:
    """Contribute kernels: implementations of primitives for a backend.

    Call ``kernels.add_kernel(backend_name, primitive_name, fn)``; ``fn(backend, *inputs,
    out=None, **attrs)`` returns the result array, writing into ``out`` when given and
    otherwise into ``backend.allocate(...)``. ``replace=True`` overrides on purpose (a
    faster kernel for an existing backend); otherwise the plugin adding a second kernel for
    the same pair is dropped (recorded in ``sporeling plugins`` naming both) with all it
    added.
    """
