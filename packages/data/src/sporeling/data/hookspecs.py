"""Extension points owned by ``sporeling.data``."""
from __future__ import annotations

from sporeling.core import hookspec


@hookspec(firstresult=True)
def sporeling_data_shard():
    """Return ``(num_shards, shard_id)`` -- the share of every source this process (or
    thread-rank) should read -- or None to read everything.

    Asked when a source is built without ``sampler``, ``num_shards`` or ``shard_id``;
    an answer with ``num_shards > 1`` gives it a :class:`~sporeling.data.DistributedSampler`.
    ``sporeling.parallel`` answers ``(group size, rank)`` in ``data_parallel`` mode, so
    data parallel training shards its data on its own; without it nothing changes.
    """
