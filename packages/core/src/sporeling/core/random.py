"""The global seed (MindSpore's ``set_seed``) and per-stream NumPy generators derived from it.

Each package draws from its own named stream (``"ops"``, ``"init"``, ``"data"``...), so adding
a random call in one package does not shift the numbers another one sees.

    >>> set_seed(7)
    >>> a = generator("ops").random()
    >>> set_seed(7)
    >>> a == generator("ops").random()
    True
"""
from __future__ import annotations

import zlib

import numpy as np

from .errors import SporelingError

__all__ = ["set_seed", "get_seed", "generator"]

_seed: list[int | None] = [None]
_generators: dict[str, np.random.Generator] = {}


def set_seed(seed: int) -> None:
    """Seed every stream; the same seed gives the same numbers in every stream."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise SporelingError("bad seed", op="set_seed", expected="an int >= 0", got=repr(seed))
    _seed[0] = int(seed)
    _generators.clear()


def get_seed() -> int | None:
    """The seed last set, or ``None``."""
    return _seed[0]


def generator(stream: str) -> np.random.Generator:
    """The generator of ``stream``, derived from the global seed (fresh entropy if unset)."""
    gen = _generators.get(stream)
    if gen is None:
        key = zlib.crc32(stream.encode())
        entropy = None if _seed[0] is None else (_seed[0], key)
        gen = _generators[stream] = np.random.default_rng(entropy)
    return gen
