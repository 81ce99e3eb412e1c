"""Communicators: the contract, its two transports and this rank's current one.

``Communicator`` (rank, size, group, collectives on NumPy arrays, nonblocking ``i*`` twins
returning :class:`Handle`), ``LocalCommunicator`` (thread-ranks), ``MpiCommunicator``
(mpi4py), the registry ``get_communicators()`` and ``current(group)``; ``check``: the
signature exchange of the ``comm_check`` context key.
"""
from .base import REDUCE_OPS, WORLD, Communicator
from .handle import DoneHandle, Handle, PollingHandle
from .local import LocalCommunicator, LocalWorld
from .mpi import MpiCommunicator, launched_world_size
from .registry import (WORLD_ALIASES, CommunicatorFactory, Communicators, current,
                       get_communicators, get_world, set_world)

__all__ = ["Communicator", "Handle", "DoneHandle", "PollingHandle", "REDUCE_OPS", "WORLD",
           "WORLD_ALIASES", "LocalCommunicator", "LocalWorld", "MpiCommunicator",
           "launched_world_size", "CommunicatorFactory", "Communicators", "get_communicators",
           "current", "get_world", "set_world"]
