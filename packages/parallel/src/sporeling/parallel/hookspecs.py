"""Extension points owned by ``sporeling.parallel``."""
from __future__ import annotations

from typing import TYPE_CHECKING

from sporeling.core import hookspec

if TYPE_CHECKING:
    from .comm.registry import Communicators


@hookspec
def sporeling_add_communicators(communicators: "Communicators") -> None:
    """Contribute communicator backends: transports that run collectives between ranks.

    Call ``communicators.add_communicator(name, factory, doc=...)``; ``factory(**options)``
    returns the world :class:`~sporeling.parallel.comm.Communicator` of the calling process
    (rank, size, collectives on NumPy arrays). ``sporeling.parallel`` itself contributes
    ``"mpi"`` (mpi4py) and ``"local"`` (ranks as threads of one process). ``init(backend=name)``
    picks one by name; a name contributed twice is a ``PluginError`` naming both plugins.
    """
