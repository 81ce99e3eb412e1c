"""Per-sample random state derived from (seed, epoch, sample index), never from workers.

Every random choice in the pipeline -- a shuffle, a sampler's order, a random crop -- draws
from a generator keyed by the owning operation's seed, the epoch and the sample's position,
so the numbers are the same whichever worker (thread or process) handles the sample and
however many workers there are. Operation seeds come from ``sporeling.core``'s ``"data"``
stream when the operation is built: ``set_seed(s)`` before building a pipeline makes every
epoch of it reproducible.

Inside a ``map`` function, :func:`sample_rng` is the current sample's generator::

    >>> import numpy as np
    >>> from sporeling.data import NumpySlicesDataset, sample_rng
    >>> from sporeling.core import set_seed
    >>> def jitter(x):
    ...     return x + sample_rng().integers(0, 100)
    >>> def run():
    ...     set_seed(3)
    ...     ds = NumpySlicesDataset(np.zeros(4, np.int64), shuffle=False).map(jitter)
    ...     return [int(r[0]) for r in ds]
    >>> run() == run()
    True
"""
from __future__ import annotations

import threading

import numpy as np

from sporeling.core import generator

from .errors import DataError

__all__ = ["sample_rng", "draw_seed", "keyed_rng"]

_MASK = (1 << 64) - 1
_state = threading.local()


def draw_seed(seed: int | None = None) -> int:
    """An operation's seed: ``seed`` if given, else the next number of the "data" stream."""
    if seed is None:
        return int(generator("data").integers(0, 1 << 63))
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise DataError("bad seed", expected="an int >= 0 or None", got=repr(seed))
    return int(seed)


def keyed_rng(seed: int, epoch: int, index: int = 0) -> np.random.Generator:
    """A generator for (seed, epoch, index): Philox keyed by them (a counter-based cipher,
    so distinct keys give independent streams; ~10 us to build)."""
    return np.random.Generator(np.random.Philox(
        key=[seed & _MASK, ((epoch & 0xFFFFFFFF) << 32 | (index & 0xFFFFFFFF)) & _MASK]))


def set_sample(seed: int, epoch: int, index: int) -> None:
    """Make (seed, epoch, index) the current sample of this thread (the generator is keyed
    lazily, so functions that draw nothing cost nothing)."""
    _state.key = (seed, epoch, index)
    _state.rng = None


class _Rekeyable:
    """One Philox generator per thread, re-keyed per sample by setting its state (~1 us,
    against ~15 us to build a new one); the numbers equal ``keyed_rng``'s."""

    def __init__(self):
        self.bits = np.random.Philox(key=[0, 0])
        self.gen = np.random.Generator(self.bits)
        self.key, self.counter = np.zeros(2, np.uint64), np.zeros(4, np.uint64)
        self.buffer = np.zeros(4, np.uint64)

    def rekey(self, seed: int, epoch: int, index: int) -> np.random.Generator:
        self.key[0] = seed & _MASK
        self.key[1] = ((epoch & 0xFFFFFFFF) << 32 | (index & 0xFFFFFFFF)) & _MASK
        self.bits.state = {"bit_generator": "Philox",
                           "state": {"counter": self.counter, "key": self.key},
                           "buffer": self.buffer, "buffer_pos": 4, "has_uint32": 0,
                           "uinteger": 0}
        return self.gen


def sample_rng() -> np.random.Generator:
    """The current sample's generator inside a ``map`` (or ``filter``) function: valid for
    that sample only (the same object is re-keyed for the next one).

    Outside a pipeline operation it falls back to ``sporeling.core.generator("data")``.
    """
    rng = getattr(_state, "rng", None)
    if rng is None:
        key = getattr(_state, "key", None)
        if key is None:
            return generator("data")
        maker = getattr(_state, "maker", None)
        if maker is None:
            maker = _state.maker = _Rekeyable()
        rng = _state.rng = maker.rekey(*key)
    return rng


def clear_sample() -> None:
    _state.key = None
    _state.rng = None
