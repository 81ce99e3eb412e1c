"""Samplers: which source indices an epoch reads, in which order.

A sampler maps (dataset length, epoch) to an index array. Random samplers draw from their
own seed (from the "data" stream, or ``seed=``) and the epoch, so every process that builds
the same pipeline after the same ``set_seed`` agrees on the order -- which is what lets
``DistributedSampler`` shard without talking to the other processes::

    >>> import numpy as np
    >>> shards = [DistributedSampler(3, i, shuffle=True, seed=0) for i in range(3)]
    >>> parts = [s.indices(9, epoch=0) for s in shards]
    >>> sorted(np.concatenate(parts).tolist()) == list(range(9))
    True
"""
from __future__ import annotations

import numpy as np

from sporeling.core import get_seed

from .errors import DataError
from .randomness import draw_seed, keyed_rng

__all__ = ["Sampler", "SequentialSampler", "RandomSampler", "DistributedSampler",
           "WeightedRandomSampler", "SubsetRandomSampler", "SubsetSampler"]


def _count(value, what: str, op: str, minimum: int = 1) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise DataError(f"bad {what}", op=op, expected=f"an int >= {minimum} or None",
                        got=repr(value))
    return int(value)


class Sampler:
    """Base: ``indices(n, epoch)`` and ``num_samples(n)``."""

    def __init__(self, num_samples: int | None = None):
        self._num = _count(num_samples, "num_samples", type(self).__name__)

    def indices(self, n: int, epoch: int) -> np.ndarray:
        """A subclass defines this, or (MindSpore's user-defined samplers) ``__iter__``
        yielding the indices, with ``self.dataset_size`` set to ``n`` as MindSpore sets it."""
        if not hasattr(type(self), "__iter__"):
            raise NotImplementedError(f"{type(self).__name__} defines neither indices(n, "
                                      f"epoch) nor __iter__")
        self.dataset_size = n
        return self._cap(np.fromiter(iter(self), np.int64))

    def num_samples(self, n: int) -> int:
        """How many indices an epoch over ``n`` samples yields."""
        return len(self.indices(n, 0))

    def _cap(self, idx: np.ndarray) -> np.ndarray:
        return idx if self._num is None else idx[:self._num]


class SequentialSampler(Sampler):
    """``start_index, start_index + 1, ...`` in order."""

    def __init__(self, start_index: int | None = None, num_samples: int | None = None):
        super().__init__(num_samples)
        self.start = _count(start_index, "start_index", "SequentialSampler", 0) or 0

    def indices(self, n, epoch):
        return self._cap(np.arange(min(self.start, n), n, dtype=np.int64))

    def num_samples(self, n):
        left = max(n - self.start, 0)
        return left if self._num is None else min(left, self._num)


class RandomSampler(Sampler):
    """A new permutation every epoch; with ``replacement``, ``num_samples`` independent draws."""

    def __init__(self, replacement: bool = False, num_samples: int | None = None,
                 seed: int | None = None):
        super().__init__(num_samples)
        self.replacement, self.seed = bool(replacement), draw_seed(seed)

    def indices(self, n, epoch):
        rng = keyed_rng(self.seed, epoch)
        if self.replacement:
            return rng.integers(0, n, self._num or n, dtype=np.int64) if n else \
                np.zeros(0, np.int64)
        return self._cap(rng.permutation(n).astype(np.int64))

    def num_samples(self, n):
        if self.replacement:
            return (self._num or n) if n else 0
        return n if self._num is None else min(n, self._num)


class DistributedSampler(Sampler):
    """Shard ``shard_id`` of ``num_shards``: every sample lands in exactly one shard per
    epoch and the shards are equal in size. Its default seed is ``set_seed``'s (0 when
    unset), so processes that set the same seed agree without communicating. When ``n`` does not divide, the epoch's order
    is padded with its own first samples (MindSpore's and PyTorch's choice, so every
    process runs the same number of steps) or, with ``drop_remainder=True``, cut short."""

    def __init__(self, num_shards: int, shard_id: int, shuffle: bool = True,
                 num_samples: int | None = None, seed: int | None = None,
                 drop_remainder: bool = False):
        super().__init__(num_samples)
        self.num_shards = _count(num_shards, "num_shards", "DistributedSampler")
        if self.num_shards is None:
            raise DataError("num_shards is required", op="DistributedSampler",
                            expected="an int >= 1")
        sid = _count(shard_id, "shard_id", "DistributedSampler", 0)
        if sid is None or sid >= self.num_shards:
            raise DataError("shard_id out of range", op="DistributedSampler",
                            expected=f"0 <= shard_id < {self.num_shards}", got=repr(shard_id))
        self.shard_id, self.shuffle = sid, bool(shuffle)
        # every shard (and every process) must agree on the order: by default the seed is
        # the global one (set_seed), not the next draw of a stream
        self.seed = draw_seed(get_seed() or 0) if seed is None else draw_seed(seed)
        self.drop_remainder = bool(drop_remainder)

    def indices(self, n, epoch):
        order = keyed_rng(self.seed, epoch).permutation(n).astype(np.int64) if self.shuffle \
            else np.arange(n, dtype=np.int64)
        k = self.num_shards
        if self.drop_remainder:
            order = order[:n - n % k]
        elif n % k and n:
            order = np.concatenate([order, np.resize(order, k - n % k)])
        return self._cap(order[self.shard_id::k])

    def num_samples(self, n):
        per = n // self.num_shards if self.drop_remainder else -(-n // self.num_shards)
        return per if self._num is None else min(per, self._num)


class WeightedRandomSampler(Sampler):
    """``num_samples`` indices drawn with probability proportional to ``weights``."""

    def __init__(self, weights, num_samples: int | None = None, replacement: bool = True,
                 seed: int | None = None):
        super().__init__(num_samples)
        w = np.asarray(weights, dtype=np.float64)
        if w.ndim != 1 or not len(w) or (w < 0).any() or not np.isfinite(w).all() \
                or w.sum() <= 0:
            raise DataError("bad weights", op="WeightedRandomSampler",
                            expected="a 1-D list of finite weights >= 0, not all zero",
                            got=repr(weights)[:80])
        if not replacement and num_samples is not None and num_samples > (w > 0).sum():
            raise DataError("num_samples exceeds the samples with weight > 0",
                            op="WeightedRandomSampler", expected=f"<= {(w > 0).sum()}",
                            got=num_samples, hint="pass replacement=True")
        self.p, self.replacement, self.seed = w / w.sum(), bool(replacement), draw_seed(seed)

    def indices(self, n, epoch):
        if len(self.p) > n:
            raise DataError("more weights than samples", op="WeightedRandomSampler",
                            expected=f"at most {n} weights", got=len(self.p))
        k = self._num or len(self.p)
        return keyed_rng(self.seed, epoch).choice(len(self.p), size=k, replace=self.replacement,
                                                  p=self.p).astype(np.int64)

    def num_samples(self, n):
        return self._num or len(self.p)


class SubsetSampler(Sampler):
    """The given ``indices``, in that order."""

    def __init__(self, indices, num_samples: int | None = None):
        super().__init__(num_samples)
        self.subset = np.asarray(indices, dtype=np.int64).reshape(-1)

    def _check(self, n):
        if len(self.subset) and (self.subset.min() < 0 or self.subset.max() >= n):
            raise DataError("subset index out of range", op=type(self).__name__,
                            expected=f"indices in [0, {n})",
                            got=f"[{self.subset.min()}, {self.subset.max()}]")

    def indices(self, n, epoch):
        self._check(n)
        return self._cap(self.subset)

    def num_samples(self, n):
        return len(self.subset) if self._num is None else min(len(self.subset), self._num)


class SubsetRandomSampler(SubsetSampler):
    """The given ``indices`` in a new random order every epoch."""

    def __init__(self, indices, num_samples: int | None = None, seed: int | None = None):
        super().__init__(indices, num_samples)
        self.seed = draw_seed(seed)

    def indices(self, n, epoch):
        self._check(n)
        return self._cap(keyed_rng(self.seed, epoch).permutation(self.subset))
