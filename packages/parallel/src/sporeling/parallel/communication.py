"""MindSpore's communication names: ``init``, ``get_rank``, ``get_group_size``,
``create_group``, ``destroy_group``, ``release``.

``init()`` picks the backend: ``mpi`` when the process was launched by ``mpiexec`` (or
``sporeling run``) with more than one rank, otherwise a single ``local`` rank. MindSpore's
backend names (``"hccl"``, ``"nccl"``, ``"mccl"``) mean the same automatic choice. Inside
:func:`sporeling.parallel.testing.run_local` each thread-rank is initialised already.

    >>> init(); (get_rank(), get_group_size())
    (0, 1)
    >>> release()
"""
from __future__ import annotations

from sporeling.core import get_context

from .comm.base import Communicator
from .comm.local import LocalWorld
from .comm.mpi import launched_world_size
from .comm.registry import _thread, current, get_communicators, get_world, set_world
from .errors import CommunicatorError, ParallelError

__all__ = ["init", "release", "get_rank", "get_group_size", "create_group", "destroy_group",
           "get_world_rank_from_group_rank", "get_group_rank_from_world_rank", "is_initialized"]

_AUTO = (None, "auto", "hccl", "nccl", "mccl")


def _local(**_options) -> Communicator:
    """One local rank (a world of size 1); ``run_local`` makes bigger local worlds."""
    return LocalWorld(1).communicator(0)


def _mpi(**_options) -> Communicator:
    from .comm.mpi import world
    from .failure import end_all_ranks_on_error
    comm = world()
    if comm.size > 1:
        end_all_ranks_on_error(comm)
    return comm


def init(backend: str | None = None) -> None:
    """Start communication for this rank (a no-op when already started).

    ``backend``: ``"mpi"``, ``"local"``, another installed communicator, or None for the
    automatic choice. A ``device_num`` context key different from the world size is an error.
    """
    world = get_world()
    if world is None:
        name = backend
        if backend in _AUTO:
            name = "mpi" if launched_world_size() > 1 else "local"
        backends = get_communicators()
        if name not in backends:
            raise CommunicatorError("unknown backend", op="init",
                                    expected=f"None or one of {', '.join(backends.names())}",
                                    got=repr(backend))
        world = backends[name].create()
        set_world(world)
    device_num = get_context("device_num")
    if device_num is not None and device_num != world.size:
        release()
        raise ParallelError("device_num differs from the world size", op="init",
                            expected=f"device_num={world.size} (the ranks launched) or None",
                            got=f"device_num={device_num}",
                            hint=f"launch {device_num} ranks (sporeling run -n {device_num}) "
                                 "or change set_auto_parallel_context(device_num=...)")


def is_initialized() -> bool:
    """Whether this rank has a world communicator."""
    return get_world() is not None


def release() -> None:
    """End communication for this rank: its groups and world communicator are released."""
    world = get_world()
    if world is None:
        return
    if _thread.world is world:  # a run_local thread-rank: its world ends with the thread
        for name in list(world.groups):
            world.groups.pop(name)
        return
    world.close()
    set_world(None)


def get_rank(group: str | None = None) -> int:
    """This rank's number in ``group`` (None: the world)."""
    return current(group, op="get_rank").rank


def get_group_size(group: str | None = None) -> int:
    """How many ranks ``group`` has (None: the world)."""
    return current(group, op="get_group_size").size


def create_group(group: str, rank_ids) -> None:
    """A named group of world ranks ``rank_ids``; its members call this (together)."""
    current(None, op="create_group").create_group(group, list(rank_ids))


def destroy_group(group: str) -> None:
    """Forget a group made by :func:`create_group`."""
    world = current(None, op="destroy_group")
    if group not in world.groups:
        raise CommunicatorError("unknown group", op="destroy_group",
                                expected=f"one of {sorted(world.groups)}", got=repr(group))
    sub = world.groups.pop(group)
    if sub is not None:
        sub.close()


def get_world_rank_from_group_rank(group: str, group_rank_id: int) -> int:
    """The world rank of member ``group_rank_id`` of ``group``."""
    return current(group, op="get_world_rank_from_group_rank").world_ranks[group_rank_id]


def get_group_rank_from_world_rank(world_rank_id: int, group: str) -> int:
    """The rank in ``group`` of world rank ``world_rank_id``."""
    ranks = current(group, op="get_group_rank_from_world_rank").world_ranks
    if world_rank_id not in ranks:
        raise CommunicatorError("world rank not in group", op="get_group_rank_from_world_rank",
                                expected=f"one of {list(ranks)}", got=world_rank_id)
    return ranks.index(world_rank_id)
