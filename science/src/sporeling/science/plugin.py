"""The science package's plugin: what it contributes through Sporeling's hooks."""
from __future__ import annotations

from sporeling.core import impl  # noqa: F401


@impl
def sporeling_add_commands(commands) -> None:  # core's hook: `sporeling science burgers`
    from . import cli
    commands.add_command("science", help=cli.HELP, run=cli.run, configure=cli.configure)


@impl
def sporeling_add_primitives(primitives) -> None:  # compiler's hook: the Fourier transforms
    from .operators.fft import FFT_PRIMITIVES
    primitives.add_primitive(*FFT_PRIMITIVES)


@impl
def sporeling_add_kernels(kernels) -> None:  # runtime's hook: their NumPy kernels
    from .operators.fft_kernels import add_kernels
    add_kernels(kernels)
