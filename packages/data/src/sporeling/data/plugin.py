"""sporeling.data's plugin: the hooks it owns (``HOOKSPECS``: ``sporeling_data_shard``,
how a parallel package tells sources which shard this rank reads)."""
from __future__ import annotations

from . import hookspecs

HOOKSPECS = hookspecs
