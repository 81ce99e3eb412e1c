"""The communicator registry (filled by ``sporeling_add_communicators``) and the current
communicator of this rank.

The world communicator is per process (MPI) or per thread (``run_local``'s thread-ranks set
their own); :func:`current` answers for the calling rank, with a named group or the world.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Callable

from sporeling.core import Registry, get_plugin_host

from ..errors import CommunicatorError
from .base import WORLD, Communicator

__all__ = ["CommunicatorFactory", "Communicators", "get_communicators", "current",
           "set_world", "get_world", "WORLD_ALIASES"]

WORLD_ALIASES = frozenset({WORLD, "hccl_world_group", "nccl_world_group", "mccl_world_group"})
"""Names that mean the world group (MindSpore's per-backend names included)."""


@dataclass(frozen=True)
class CommunicatorFactory:
    """A backend: ``create(**options)`` returns this process's world communicator."""
    name: str
    create: Callable[..., Communicator]
    doc: str = ""


class Communicators(Registry[CommunicatorFactory]):
    """What ``sporeling_add_communicators`` fills."""

    def __init__(self):
        super().__init__("communicator")

    def add_communicator(self, name: str, factory: Callable[..., Communicator], *,
                         doc: str = "") -> None:
        self.add(name, CommunicatorFactory(name, factory, doc))


def get_communicators() -> Communicators:
    """Every installed communicator backend, by name."""
    host = get_plugin_host()
    return host.cached("communicators",
                       lambda: host.collect("sporeling_add_communicators", Communicators()))


class _Worlds(threading.local):
    def __init__(self):
        self.world: Communicator | None = None


_process_world: list[Communicator | None] = [None]
_thread = _Worlds()


def set_world(comm: Communicator | None, *, thread: bool = False) -> None:
    """Make ``comm`` the world of this process (or, ``thread=True``, of this thread only)."""
    if thread:
        _thread.world = comm
    else:
        _process_world[0] = comm


def get_world() -> Communicator | None:
    """This rank's world communicator, None before ``init``."""
    return _thread.world or _process_world[0]


def current(group: str | None = None, *, op: str = "communication") -> Communicator:
    """This rank's communicator for ``group`` (None: the world)."""
    world = get_world()
    if world is None:
        raise CommunicatorError("communication is not initialised", op=op,
                                expected="sporeling.parallel.init() first", got="no init() call")
    if group is None or group in WORLD_ALIASES:
        return world
    if group not in world.groups:
        raise CommunicatorError("unknown group", op=op,
                                expected=f"the world or one of {sorted(world.groups)}",
                                got=repr(group))
    sub = world.groups[group]
    if sub is None:
        raise CommunicatorError(f"world rank {world.rank} is not a member of group {group!r}",
                                op=op, expected="a group this rank belongs to", got=repr(group))
    return sub
