"""``ms.common``: dtype objects and other shared MindSpore-2.x names."""
from . import dtype, initializer
from .dtype import to_numpy
from .eager import EagerOnlyError, eager_only

__all__ = ["dtype", "initializer", "to_numpy", "eager_only", "EagerOnlyError"]
