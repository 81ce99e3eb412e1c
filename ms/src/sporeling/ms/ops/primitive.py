"""``ms.ops.primitive``: ``from mindspore.ops.primitive import Primitive, constexpr``."""
from .functional_math.registration import constexpr
from .primitives import Primitive

__all__ = ["Primitive", "constexpr"]
