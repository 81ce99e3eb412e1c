"""functional_array of ms.ops: MindSpore r2.3's neural-network, loss, activation, pooling,
image, distance, sampling, array, parameter, debugging and sparse functions over sx ops.

One module per category; this file gathers their ``__all__``."""
from . import (activation, array, deformable, distance, image, indexing, loss, nn, parameter,
               pooling, sparse)
from .activation import *  # noqa: F401,F403
from .array import *  # noqa: F401,F403
from .indexing import *  # noqa: F401,F403
from .loss import *  # noqa: F401,F403
from .nn import *  # noqa: F401,F403
from .pooling import *  # noqa: F401,F403
from .distance import *  # noqa: F401,F403
from .image import *  # noqa: F401,F403
from .deformable import *  # noqa: F401,F403
from .parameter import *  # noqa: F401,F403
from .sparse import *  # noqa: F401,F403
from .sparse import COOTensor, CSRTensor  # noqa: F401  (the containers the sparse functions take)

__all__ = [*activation.__all__, *array.__all__, *indexing.__all__, *loss.__all__, *nn.__all__,
           *pooling.__all__, *distance.__all__, *image.__all__, *deformable.__all__,
           *parameter.__all__, *sparse.__all__]
