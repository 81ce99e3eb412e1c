"""functional_array of ms.ops: MindSpore r2.3's neural-network, loss, activation, pooling,
image, distance, sampling, array, parameter, debugging and sparse functions over sx ops.

One module per category; this file gathers their ``__all__``."""
from . import activation, array, indexing, loss, nn, pooling
from .activation import *  # noqa: F401,F403
from .array import *  # noqa: F401,F403
from .indexing import *  # noqa: F401,F403
from .loss import *  # noqa: F401,F403
from .nn import *  # noqa: F401,F403
from .pooling import *  # noqa: F401,F403

__all__ = [*activation.__all__, *array.__all__, *indexing.__all__, *loss.__all__, *nn.__all__, *pooling.__all__]
