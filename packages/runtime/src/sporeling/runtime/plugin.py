"""Runtime's built-in plugin: its hookspecs, the pool's context keys, the NumPy backend
and its kernels -- contributed through the same hooks a third-party plugin uses."""
from __future__ import annotations

from sporeling.core import impl

from . import hookspecs
from .kernels import NUMPY_KERNELS
from .memory.options import add_memory_options
from .numpy_backend import NumpyBackend

HOOKSPECS = hookspecs


@impl
def sporeling_add_context_options(options) -> None:
    add_memory_options(options)


@impl
def sporeling_add_backends(backends) -> None:
    backends.add(NumpyBackend.name, NumpyBackend)


@impl
def sporeling_add_kernels(kernels) -> None:
    for primitive, fn in NUMPY_KERNELS.items():
        kernels.add_kernel(NumpyBackend.name, primitive, fn)
