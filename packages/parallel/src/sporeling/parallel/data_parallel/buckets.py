"""Gradient buckets: which parameters' gradients travel together in one fused all-reduce.

Parameters are taken in reverse order -- a network's last layers get their gradients
first in backward -- and packed greedily into buckets of one dtype holding at most
``cap_bytes`` (PyTorch DDP's ``bucket_cap_mb`` heuristic; MindSpore fuses by its
``all_reduce_fusion_config``); a parameter bigger than the cap gets a bucket of its own.
A parameter's ``comm_fusion`` (MindSpore's fusion group, default 1; ``Cell.set_comm_fusion``
sets it) splits the packing further: only gradients of one group share a bucket, and
group 0 gives each of its gradients a bucket of its own.

    >>> import numpy as np
    >>> class P:                                    # anything with shape and dtype
    ...     def __init__(self, n): self.shape, self.dtype = (n,), np.dtype("float64")
    >>> [b.indices for b in plan_buckets([P(10), P(20), P(30), P(100)], cap_bytes=400)]
    [(3,), (2, 1), (0,)]
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = ["Bucket", "plan_buckets", "DEFAULT_BUCKET_CAP_MB"]

DEFAULT_BUCKET_CAP_MB = 25.0
"""The default bucket size in MiB (PyTorch DDP's ``bucket_cap_mb``)."""


@dataclass
class Bucket:
    """Parameters ``indices`` (into the reducer's parameter tuple), each at ``offsets[k]``
    with ``sizes[k]`` elements in one flat buffer of ``dtype`` and ``numel`` elements."""
    dtype: np.dtype
    indices: tuple = ()
    offsets: tuple = ()
    sizes: tuple = ()
    shapes: tuple = ()
    numel: int = 0
    position: dict = field(default_factory=dict)  # parameter index -> k

    @property
    def nbytes(self) -> int:
        return self.numel * self.dtype.itemsize

    def _add(self, index: int, shape: tuple) -> None:
        size = int(np.prod(shape, dtype=np.int64))
        self.position[index] = len(self.indices)
        self.indices += (index,)
        self.offsets += (self.numel,)
        self.sizes += (size,)
        self.shapes += (tuple(shape),)
        self.numel += size


def plan_buckets(params, cap_bytes: int) -> list[Bucket]:
    """Buckets for ``params`` (objects with ``shape`` and ``dtype``), in the order their
    gradients are expected to become final (see the module doc)."""
    open_by_key: dict[tuple, Bucket] = {}
    buckets: list[Bucket] = []
    for index in reversed(range(len(params))):
        p = params[index]
        dtype = np.dtype(p.dtype)
        group = getattr(p, "comm_fusion", 1)
        size = int(np.prod(tuple(p.shape), dtype=np.int64)) * dtype.itemsize
        bucket = open_by_key.get((dtype, group))
        if bucket is None or group == 0 or (bucket.numel and bucket.nbytes + size > cap_bytes):
            bucket = open_by_key[(dtype, group)] = Bucket(dtype)
            buckets.append(bucket)
        bucket._add(index, tuple(p.shape))
    return buckets
