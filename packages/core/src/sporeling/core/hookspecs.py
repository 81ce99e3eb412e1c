"""Extension points owned by ``sporeling.core``."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .hooks import hookspec

if TYPE_CHECKING:
    from .cli import Commands
    from .context import ContextOptions


@hookspec
def sporeling_add_context_options(options: "ContextOptions") -> None:
    """Declare the ``set_context`` keys a package understands.

    Call ``options.add_option(name, default, doc=..., valid=..., convert=...)`` per key;
    ``convert`` returns the normalised value or raises ``ValueError``/``TypeError``. A key
    another plugin already declared drops the later plugin (see ``sporeling plugins``)
    unless ``replace=True`` redeclares it on purpose. ``options.add_alias(name, target,
    doc=...)`` declares another name of an existing key (one value, read and set through
    either).
    """


@hookspec
def sporeling_add_commands(commands: "Commands") -> None:
    """Add subcommands to the ``sporeling`` console command.

    Call ``commands.add_command(name, help=..., run=..., configure=...)``: ``configure``
    receives the subcommand's ``argparse`` parser, ``run`` the parsed arguments and returns
    an exit status. A command name another plugin already has drops the later plugin; the
    other commands keep working.
    """
