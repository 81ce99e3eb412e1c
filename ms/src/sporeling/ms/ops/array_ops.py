"""``ms.ops.array_ops`` (2.10's ``mindspore.ops.operations.array_ops``): the facade's array
primitive classes (``array_ops.Reshape()``, ``array_ops.Gather()``...)."""
from .primitives.array_classes import *  # noqa: F401,F403
from .primitives.array_table import *    # noqa: F401,F403
from .primitives import array_classes as _classes, array_table as _table

__all__ = [*_classes.__all__, *_table.__all__]
