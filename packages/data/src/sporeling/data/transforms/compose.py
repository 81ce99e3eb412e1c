"""``Compose`` and random choices between transforms."""
from __future__ import annotations

from ..errors import DataError
from ..randomness import sample_rng

__all__ = ["Compose", "RandomApply", "RandomChoice", "fuse"]


def _callables(transforms, op: str) -> list:
    items = list(transforms)
    bad = [type(t).__name__ for t in items if not callable(t)]
    if not items or bad:
        raise DataError("transforms must be callables", op=op,
                        expected="a non-empty list of callables", got=bad or items)
    return items


def fuse(transforms) -> list:
    """``transforms`` with each ``Normalize`` directly followed by ``HWC2CHW`` merged into
    one call writing CHW floats in one pass (same numbers, one full-image copy fewer).
    Only the library's own classes are merged: a subclass may change what they do."""
    from .vision import HWC2CHW, Normalize
    out = []
    for t in transforms:
        if type(t) is HWC2CHW and out and type(out[-1]) is Normalize and out[-1].is_hwc:
            out[-1] = out[-1].to_chw
        else:
            out.append(t)
    return out


def apply_all(transforms, args: tuple):
    for t in transforms:
        out = t(*args)
        args = out if isinstance(out, tuple) else (out,)
    return args if len(args) > 1 else args[0]


class Compose:
    """Apply ``transforms`` in turn (a tuple result feeds the next one's arguments)::

        >>> import numpy as np
        >>> int(Compose([lambda x: x + 1, lambda x: x * 2])(np.array(3)))
        8
    """

    def __init__(self, transforms):
        self.transforms = _callables(transforms, "Compose")

    def __call__(self, *args):
        return apply_all(self.transforms, args)


class RandomApply:
    """Apply all of ``transforms`` with probability ``prob``, else pass the input through."""

    def __init__(self, transforms, prob: float = 0.5):
        self.transforms, self.prob = _callables(transforms, "RandomApply"), float(prob)

    def __call__(self, *args):
        if sample_rng().random() < self.prob:
            return apply_all(self.transforms, args)
        return args if len(args) > 1 else args[0]


class RandomChoice:
    """Apply one of ``transforms``, chosen uniformly per sample."""

    def __init__(self, transforms):
        self.transforms = _callables(transforms, "RandomChoice")

    def __call__(self, *args):
        t = self.transforms[int(sample_rng().integers(len(self.transforms)))]
        return t(*args)
