"""Helpers for tests (and quick experiments): run a function on N thread-ranks.

    >>> import numpy as np
    >>> from sporeling.parallel import get_rank, comm
    >>> run_local(2, lambda: comm.current().all_reduce(np.array([get_rank() + 1.0])).tolist())
    [[3.0], [3.0]]
"""
from __future__ import annotations

import threading

from .comm.local import LocalWorld
from .comm.registry import set_world
from .errors import RankFailedError

__all__ = ["run_local"]


def run_local(n: int, fn, *args, **kwargs) -> list:
    """Run ``fn(*args, **kwargs)`` on ``n`` ranks (threads of this process, each with its own
    ``local`` world communicator already initialised); the list of their results in rank order.

    When a rank raises, the others' pending collectives end at once and the first exception
    is re-raised here, with a note naming its rank.
    """
    world = LocalWorld(n)
    results: list = [None] * n
    errors: list = [None] * n

    def rank_main(rank: int) -> None:
        set_world(world.communicator(rank), thread=True)
        try:
            results[rank] = fn(*args, **kwargs)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller below
            errors[rank] = exc
            world.fail(rank, exc)
        finally:
            set_world(None, thread=True)

    threads = [threading.Thread(target=rank_main, args=(r,), name=f"sporeling-rank-{r}",
                                daemon=True) for r in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if world.failed is not None:
        rank, exc = world.failed
        if not isinstance(exc, RankFailedError) and hasattr(exc, "add_note"):  # Python 3.11+
            exc.add_note(f"(raised on local rank {rank} of {n})")
        raise exc
    return results
