"""The batching rule (``vmap``) of the segment primitives (attached in :mod:`.primitives`).

* Only ``data`` batched: the batch axis moves just behind the row axis, ``(N, B, *F)``, and
  one reduction gives ``(num_segments, B, *F)`` (batch on axis 1).
* ``segment_ids`` batched: example ``b``'s ids are offset by ``b * num_segments`` and the
  rows of all examples are reduced at once into ``B * num_segments`` segments, then split
  back to ``(B, num_segments, *F)``.
"""
from __future__ import annotations

import numpy as np

from sporeling.compiler import bind
from sporeling.compiler.ops import add, broadcast_to, reshape, transpose


def _move_axis(x, src: int, dst: int):
    if src == dst:
        return x
    order = [i for i in range(len(x.shape)) if i != src]
    order.insert(dst, src)
    return transpose(x, tuple(order))


def _at_front(x, d, size: int):
    """``x`` with its batch axis first (broadcast over the batch when unbatched)."""
    if d is None:
        return broadcast_to(x, (size,) + tuple(x.shape))
    return _move_axis(x, d, 0)


def segment_rule(prim):
    """The batching rule of the segment primitive ``prim``."""
    def rule(args, dims, *, num_segments):
        (data, ids), (dd, di) = args, dims
        if di is None:
            return bind(prim, _move_axis(data, dd, 1), ids, num_segments=num_segments), 1
        size = ids.shape[di]
        data, ids = _at_front(data, dd, size), _move_axis(ids, di, 0)
        rows = tuple(data.shape[2:])
        offsets = (np.arange(size) * num_segments).astype(ids.dtype).reshape(size, 1)
        flat_ids = reshape(add(ids, offsets), (-1,))
        flat = bind(prim, reshape(data, (-1,) + rows), flat_ids,
                    num_segments=size * num_segments)
        return reshape(flat, (size, num_segments) + rows), 0
    return rule
