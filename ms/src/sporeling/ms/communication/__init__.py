"""``ms.communication``: ``init``, ``get_rank``, ``get_group_size``, ``create_group``,
``release`` and the group names, as MindSpore 2.x has them.

When ``sporeling.parallel`` is installed and implements a function, the call goes to it;
otherwise the single-process implementation here answers: one process, rank 0, group size 1
(the world group), which is what a MindSpore script sees when launched without a cluster.
"""
from __future__ import annotations

import importlib

from sporeling.core.errors import SporelingError

__all__ = ["init", "release", "get_rank", "get_group_size", "get_local_rank",
           "get_local_rank_size", "create_group", "destroy_group", "get_world_rank_from_group_rank",
           "get_group_rank_from_world_rank", "GlobalComm", "HCCL_WORLD_COMM_GROUP",
           "NCCL_WORLD_COMM_GROUP", "MCCL_WORLD_COMM_GROUP"]

HCCL_WORLD_COMM_GROUP = "hccl_world_group"
NCCL_WORLD_COMM_GROUP = "nccl_world_group"
MCCL_WORLD_COMM_GROUP = "mccl_world_group"
_BACKENDS = {"hccl": HCCL_WORLD_COMM_GROUP, "nccl": NCCL_WORLD_COMM_GROUP,
             "mccl": MCCL_WORLD_COMM_GROUP}


class GlobalComm:
    """MindSpore's record of the backend and world group in use."""
    BACKEND = "mccl"
    WORLD_COMM_GROUP = MCCL_WORLD_COMM_GROUP
    INITED = False


_groups: dict[str, list[int]] = {}


def _parallel(name: str):
    """``sporeling.parallel.<name>`` when that package exists and provides it."""
    try:
        module = importlib.import_module("sporeling.parallel")
    except ImportError:
        return None
    return getattr(module, name, None)


def _delegate(name, *args, **kwargs):
    """(True, result) when sporeling.parallel implements ``name``, else (False, None)."""
    fn = _parallel(name)
    return (True, fn(*args, **kwargs)) if callable(fn) else (False, None)


def _check_inited(op: str) -> None:
    if not GlobalComm.INITED:
        raise SporelingError("communication is not initialised", op=op,
                             expected="ms.communication.init() first", got="no init() call")


def _check_group(op: str, group):
    if group is None:
        return GlobalComm.WORLD_COMM_GROUP
    if group != GlobalComm.WORLD_COMM_GROUP and group not in _groups:
        raise SporelingError("unknown group", op=op,
                             expected=f"{GlobalComm.WORLD_COMM_GROUP!r} or one of "
                                      f"{sorted(_groups)}", got=repr(group))
    return group


def init(backend_name: str | None = None) -> None:
    """Start communication. One process: the world group is this process alone."""
    if backend_name is not None and backend_name not in _BACKENDS:
        raise SporelingError("unknown backend", op="communication.init",
                             expected=f"one of {sorted(_BACKENDS)} or None",
                             got=repr(backend_name))
    _delegate("init", backend_name)
    GlobalComm.BACKEND = backend_name or "mccl"
    GlobalComm.WORLD_COMM_GROUP = _BACKENDS[GlobalComm.BACKEND]
    GlobalComm.INITED = True


def release() -> None:
    """Stop communication; groups created since ``init`` are dropped."""
    _delegate("release")
    _groups.clear()
    GlobalComm.INITED = False


def _group(group):
    """MindSpore's world-group names mean the world (None) for sporeling.parallel."""
    return None if group in (None, *_BACKENDS.values()) else group


def get_rank(group=None) -> int:
    """This process's rank in ``group`` (the world by default)."""
    done, value = _delegate("get_rank", _group(group))
    if done:
        return value
    _check_inited("communication.get_rank")
    _check_group("communication.get_rank", group)
    return 0


def get_local_rank(group=None) -> int:
    """The rank on this machine: the rank itself (one machine)."""
    done, value = _delegate("get_local_rank", _group(group))
    return value if done else get_rank(group)


def get_group_size(group=None) -> int:
    """How many ranks ``group`` has (the world by default)."""
    done, value = _delegate("get_group_size", _group(group))
    if done:
        return value
    _check_inited("communication.get_group_size")
    group = _check_group("communication.get_group_size", group)
    return 1 if group == GlobalComm.WORLD_COMM_GROUP else len(_groups[group])


def get_local_rank_size(group=None) -> int:
    """Ranks on this machine: the group size (one machine)."""
    done, value = _delegate("get_local_rank_size", _group(group))
    return value if done else get_group_size(group)


def create_group(group: str, rank_ids) -> None:
    """A named group of world ranks; in one process only rank 0 exists."""
    done, _ = _delegate("create_group", group, rank_ids)
    if done:
        return
    _check_inited("communication.create_group")
    rank_ids = [int(r) for r in rank_ids]
    if group == GlobalComm.WORLD_COMM_GROUP or group in _groups:
        raise SporelingError("group exists", op="communication.create_group",
                             expected="a new group name", got=repr(group))
    if not rank_ids or len(set(rank_ids)) != len(rank_ids) or any(r != 0 for r in rank_ids):
        raise SporelingError("bad rank_ids", op="communication.create_group",
                             expected="distinct ranks of the world group (only rank 0 in one "
                                      "process)", got=rank_ids)
    _groups[group] = rank_ids


def destroy_group(group: str) -> None:
    """Forget a group made by ``create_group``."""
    done, _ = _delegate("destroy_group", group)
    if done:
        return
    if group not in _groups:
        raise SporelingError("unknown group", op="communication.destroy_group",
                             expected=f"one of {sorted(_groups)}", got=repr(group))
    del _groups[group]


def get_world_rank_from_group_rank(group: str, group_rank_id: int) -> int:
    """The world rank of member ``group_rank_id`` of ``group``."""
    done, value = _delegate("get_world_rank_from_group_rank", group, group_rank_id)
    if done:
        return value
    group = _check_group("communication.get_world_rank_from_group_rank", group)
    return _groups.get(group, [0])[group_rank_id]


def get_group_rank_from_world_rank(world_rank_id: int, group: str) -> int:
    """The rank in ``group`` of world rank ``world_rank_id``."""
    done, value = _delegate("get_group_rank_from_world_rank", world_rank_id, group)
    if done:
        return value
    group = _check_group("communication.get_group_rank_from_world_rank", group)
    return _groups.get(group, [0]).index(world_rank_id)
