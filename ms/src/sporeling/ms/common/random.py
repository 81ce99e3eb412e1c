"""MindSpore 2.10's random-state API over Sporeling's global seed: ``manual_seed``,
``seed``, ``initial_seed``, ``get_rng_state``/``set_rng_state`` and ``Generator``
(``default_generator`` is the global one; other Generators keep their own state)."""
from __future__ import annotations

import copy
import secrets

import numpy as np

from sporeling.core import random as _core_random

__all__ = ["Generator", "default_generator", "manual_seed", "seed", "initial_seed",
           "get_rng_state", "set_rng_state"]


def _check_seed(value, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise ValueError(f"For '{where}', the seed must be an int >= 0, but got {value!r}.")
    return int(value)


class Generator:
    """A random-number generator's state. ``default_generator`` drives every random op
    (Sporeling's global seed); a new ``Generator()`` holds a state of its own."""

    def __init__(self):
        self._seed = 0
        self._state = {"seed": 0, "streams": {}}

    def manual_seed(self, seed):
        """Seed it; returns the generator."""
        self._seed = _check_seed(seed, "Generator.manual_seed")
        self._state = {"seed": self._seed, "streams": {}}
        return self

    def seed(self) -> int:
        """Seed it with a fresh random number, which is returned."""
        value = secrets.randbits(63)
        self.manual_seed(value)
        return value

    def initial_seed(self) -> int:
        """The seed it was last seeded with."""
        return self._seed

    def get_state(self):
        """Its state (pass it to ``set_state`` to go back there)."""
        return copy.deepcopy(self._state)

    def set_state(self, state) -> None:
        """Go back to a state ``get_state`` returned."""
        self._state = copy.deepcopy(state)
        self._seed = state.get("seed") or 0


class _DefaultGenerator(Generator):
    """The global generator: Sporeling's seed and random streams."""

    def manual_seed(self, seed):
        _core_random.set_seed(_check_seed(seed, "manual_seed"))
        return self

    def initial_seed(self) -> int:
        value = _core_random.get_seed()
        return 0 if value is None else value

    def get_state(self):
        return _core_random.get_rng_state()

    def set_state(self, state) -> None:
        _core_random.set_rng_state(state)


default_generator = _DefaultGenerator()


def manual_seed(seed) -> None:
    """Seed the default generator (as ``set_seed`` does for the random ops)."""
    default_generator.manual_seed(seed)


def seed() -> int:
    """Seed the default generator with a fresh random number and return it."""
    return default_generator.seed()


def initial_seed() -> int:
    """The default generator's seed."""
    return default_generator.initial_seed()


def get_rng_state():
    """The default generator's state."""
    return default_generator.get_state()


def set_rng_state(new_state) -> None:
    """Put the default generator back to ``new_state`` (from ``get_rng_state``)."""
    default_generator.set_state(new_state)
