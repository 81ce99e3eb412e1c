"""Runtime's built-in plugin: its hookspecs, the pool's context keys, the NumPy backend
and its kernels -- contributed through the same hooks a third-party plugin uses."""
from __future__ import annotations

from sporeling.core import impl

from . import hookspecs
from .kernels import NUMPY_KERNELS, NUMPY_KERNEL_MEMORY
from .memory.options import add_memory_options
from .backend import check_backend_name, check_device_target
from .numpy_backend import NumpyBackend

HOOKSPECS = hookspecs


@impl
def sporeling_add_context_options(options) -> None:
    add_memory_options(options)
    # core declares device_target without knowing backends; with the runtime installed,
    # set_context checks the target against the installed ones
    options.add_option("device_target", "CPU", convert=check_device_target, replace=True,
                       doc="Which backend runs ops: the device target of an installed one.",
                       valid="the device target of an installed backend "
                             "(sporeling_add_backends), any case")
    options.add_option("backend", None, convert=check_backend_name,
                       doc="Which installed backend serves the device target (None: the "
                           "one of highest priority, NumPy for CPU).",
                       valid="None or the name of an installed backend")


@impl
def sporeling_add_backends(backends) -> None:
    backends.add(NumpyBackend.name, NumpyBackend)


@impl
def sporeling_add_kernels(kernels) -> None:
    for primitive, fn in NUMPY_KERNELS.items():
        kernels.add_kernel(NumpyBackend.name, primitive, fn,
                           memory=NUMPY_KERNEL_MEMORY[primitive])


@impl
def sporeling_add_commands(commands) -> None:
    from .kernels_command import add_kernels_command
    add_kernels_command(commands)
