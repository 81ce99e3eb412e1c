"""``ms.dataset.config``: the pipeline's seed and worker settings (MindSpore's names).

``set_seed(seed)`` reseeds only the ``"data"`` random stream that every shuffle, sampler and
random transform draws its seed from when built (``sporeling.core.set_seed`` reseeds all
streams, model initialisation included), so the same pipeline built after the same seed
yields the same order and augmentations.
"""
from __future__ import annotations

import zlib

import numpy as np

from sporeling.core import random as _core_random
from sporeling.core.errors import SporelingError

__all__ = ["set_seed", "get_seed", "set_num_parallel_workers", "get_num_parallel_workers",
           "set_prefetch_size", "get_prefetch_size"]

_settings = {"seed": None, "num_parallel_workers": 8, "prefetch_size": 16}


def _positive_int(op, name, value, minimum):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise SporelingError(f"bad {name}", op=op, expected=f"an int >= {minimum}",
                             got=repr(value))
    return int(value)


def set_seed(seed: int) -> None:
    """Seed the dataset pipeline (MindSpore's ``dataset.config.set_seed``)."""
    seed = _positive_int("dataset.config.set_seed", "seed", seed, 0)
    _settings["seed"] = seed
    # core keeps one generator per named stream; replace the "data" one only
    _core_random._generators["data"] = np.random.default_rng((seed, zlib.crc32(b"data")))


def get_seed():
    """The seed last given to ``set_seed`` (None if never set)."""
    return _settings["seed"]


def set_num_parallel_workers(num: int) -> None:
    """Default worker count MindSpore uses for ``map``; recorded (pipelines take their own
    ``num_parallel_workers``)."""
    _settings["num_parallel_workers"] = _positive_int(
        "dataset.config.set_num_parallel_workers", "num", num, 1)


def get_num_parallel_workers() -> int:
    return _settings["num_parallel_workers"]


def set_prefetch_size(size: int) -> None:
    _settings["prefetch_size"] = _positive_int("dataset.config.set_prefetch_size", "size",
                                               size, 1)


def get_prefetch_size() -> int:
    return _settings["prefetch_size"]
