"""``ms.common``: dtype objects and other shared MindSpore-2.x names."""
from . import dtype
from .dtype import to_numpy
from .eager import EagerOnlyError, eager_only

__all__ = ["dtype", "to_numpy", "eager_only", "EagerOnlyError"]
