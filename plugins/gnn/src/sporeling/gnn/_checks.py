"""Segment-id checks shared by the abstract rules and the kernels (kept apart so that
registering kernels defines no primitive)."""
from __future__ import annotations

import numpy as np

from sporeling.core import ShapeError

__all__ = ["SegmentIdError", "check_ids"]


class SegmentIdError(ShapeError, IndexError):
    """A segment id outside ``[0, num_segments)``."""


def check_ids(op: str, ids, num_segments: int) -> None:
    """An error when concrete ``ids`` leave ``[0, num_segments)`` (tracers pass: the kernel
    checks again when the graph runs)."""
    if isinstance(ids, np.ndarray) and ids.size:
        lo, hi = ids.min(), ids.max()
        if lo < 0 or hi >= num_segments:
            bad = int(lo if lo < 0 else hi)
            raise SegmentIdError("segment id out of range", op=op,
                                 expected=f"ids in [0, {num_segments}) (num_segments="
                                          f"{num_segments})", got=bad)
