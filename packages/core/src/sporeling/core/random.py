"""The global seed (MindSpore's ``set_seed``) and per-stream NumPy generators derived from it.

Each package draws from its own named stream (``"ops"``, ``"init"``, ``"data"``...), so adding
a random call in one package does not shift the numbers another one sees.

    >>> set_seed(7)
    >>> a = generator("ops").random()
    >>> set_seed(7)
    >>> a == generator("ops").random()
    True

``get_rng_state()`` / ``set_rng_state(state)`` capture and put back the seed and every
stream's position (what a resumed training run needs to draw the numbers it would have
drawn): the state is plain JSON-able data.

    >>> state = get_rng_state(); b = generator("ops").random()
    >>> set_rng_state(state); b == generator("ops").random()
    True
"""
from __future__ import annotations

import zlib

import numpy as np

from .errors import SporelingError

__all__ = ["set_seed", "get_seed", "generator", "get_rng_state", "set_rng_state"]

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


def get_rng_state() -> dict:
    """The seed and the position of every stream drawn from so far, as JSON-able data
    (``{"seed": int | None, "streams": {name: bit generator state}}``)."""
    return {"seed": _seed[0],
            "streams": {name: _jsonable(gen.bit_generator.state)
                        for name, gen in _generators.items()}}


def set_rng_state(state: dict) -> None:
    """Put back what :func:`get_rng_state` returned: the seed, and each stream where it
    was (streams not drawn from then start afresh from the seed, as they would have)."""
    try:
        seed, streams = state["seed"], dict(state["streams"])
        generators = {}
        for name, bits in streams.items():
            gen = np.random.Generator(getattr(np.random, bits["bit_generator"])())
            gen.bit_generator.state = bits
            generators[str(name)] = gen
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise SporelingError("bad random state", op="set_rng_state",
                             expected="what get_rng_state() returned",
                             got=f"{type(exc).__name__}: {exc}") from None
    if seed is not None:
        set_seed(seed)
    _seed[0] = seed
    _generators.clear()
    _generators.update(generators)


def _jsonable(value):
    """A bit generator's state with NumPy arrays and integers as lists and ints."""
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.integer):
        return int(value)
    return value
