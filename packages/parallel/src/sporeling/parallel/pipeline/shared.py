"""Parameters several pipeline stages hold (an embedding table the first stage looks up and
the last stage's head multiplies by), and their synchronisation (MindSpore's
``sync_pipeline_shared_parameters``).

Every rank builds the whole network but updates or loads only its own stage's parameters, so
a parameter two stages share can differ between their ranks. :func:`sync_shared_parameters`
gives every rank the value held by the first stage that uses it (replica 0 of that stage),
one broadcast per shared parameter."""
from __future__ import annotations

from sporeling.core import get_context

from ..comm.registry import current
from .stages import plan_stages

__all__ = ["shared_parameters", "sync_shared_parameters"]


def shared_parameters(plan) -> list[tuple[object, list[int]]]:
    """``(parameter, stages)`` for each parameter held by more than one stage of ``plan``,
    in the order the first stage holding it lists it."""
    holders: dict[int, tuple[object, list[int]]] = {}
    for k, cells in enumerate(plan.stages):
        for _path, cell in cells:
            for p in cell.get_parameters():
                entry = holders.setdefault(id(p), (p, []))
                if k not in entry[1]:
                    entry[1].append(k)
    return [entry for entry in holders.values() if len(entry[1]) > 1]


def sync_shared_parameters(network) -> list[str]:
    """Broadcast each shared parameter of ``network`` (a pipeline chain, see
    :func:`~.stages.plan_stages`) from the first stage holding it; the names synchronised."""
    stages = get_context("pipeline_stages")
    comm = current(None, op="sync_shared_parameters")
    if stages == 1 or comm.size == 1:
        return []
    replicas = comm.size // stages
    synced = []
    for p, holders in shared_parameters(plan_stages(network, stages)):
        root = holders[0] * replicas
        value = comm.broadcast(p.asnumpy(), root)
        if comm.rank != root:
            p.set_data(value)
        synced.append(p.name)
    comm.barrier()
    return synced
