"""``ms.common.tensor``: where MindSpore's sources import ``Tensor`` (and ``swap_tensors``)
from."""
from sporeling.core import SporelingError
from sporeling.expression import Tensor

__all__ = ["Tensor", "swap_tensors"]


def _slots(cls) -> list[str]:
    """Every ``__slots__`` entry along ``cls``'s classes (``__weakref__`` aside)."""
    names = []
    for klass in cls.__mro__:
        slots = klass.__dict__.get("__slots__", ())
        names += [s for s in ((slots,) if isinstance(slots, str) else slots)
                  if s not in ("__weakref__", "__dict__")]
    return names


def swap_tensors(t1, t2) -> None:
    """MindSpore 2.10's ``swap_tensors``: ``t1`` and ``t2`` exchange their contents (data,
    dtype, shape, gradient record; a Parameter's name too) in place, each keeping its
    identity. Both must be of the same class."""
    for name, t in (("t1", t1), ("t2", t2)):
        if not isinstance(t, Tensor):
            raise SporelingError(f"{name} must be a Tensor", op="swap_tensors",
                                 expected="two Tensors", got=type(t).__name__)
    if type(t1) is not type(t2):
        raise SporelingError("the tensors' slots differ", op="swap_tensors",
                             expected="two objects of the same class",
                             got=f"{type(t1).__name__} and {type(t2).__name__}")
    missing = object()
    for slot in _slots(type(t1)):
        a, b = getattr(t1, slot, missing), getattr(t2, slot, missing)
        for target, value in ((t1, b), (t2, a)):
            if value is missing:
                delattr(target, slot)
            else:
                setattr(target, slot, value)
    if hasattr(t1, "__dict__"):
        t1.__dict__, t2.__dict__ = t2.__dict__, t1.__dict__
