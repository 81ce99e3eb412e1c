"""functional_array of ms.ops: MindSpore r2.3's neural-network, loss, activation, pooling,
image, distance, sampling, array, parameter, debugging and sparse functions over sx ops.

One module per category; this file gathers their ``__all__``."""
from . import (activation, array, blocks, boxes, deformable, distance, grids, image, indexing,
               loss, matrix, nn, parameter, pooling, segments, sparse)
from . import attention, collectives, fused_nn, inplace, placement, reshaping, sparse_parts
from .activation import *  # noqa: F401,F403
from .array import *  # noqa: F401,F403
from .blocks import *  # noqa: F401,F403
from .boxes import *  # noqa: F401,F403
from .deformable import *  # noqa: F401,F403
from .distance import *  # noqa: F401,F403
from .grids import *  # noqa: F401,F403
from .image import *  # noqa: F401,F403
from .indexing import *  # noqa: F401,F403
from .loss import *  # noqa: F401,F403
from .matrix import *  # noqa: F401,F403
from .nn import *  # noqa: F401,F403
from .parameter import *  # noqa: F401,F403
from .pooling import *  # noqa: F401,F403
from .segments import *  # noqa: F401,F403
from .sparse import *  # noqa: F401,F403
from .attention import *  # noqa: F401,F403
from .collectives import *  # noqa: F401,F403
from .fused_nn import *  # noqa: F401,F403
from .inplace import *  # noqa: F401,F403
from .placement import *  # noqa: F401,F403
from .reshaping import *  # noqa: F401,F403
from .sparse_parts import *  # noqa: F401,F403
from .sparse import COOTensor, CSRTensor  # noqa: F401  (the containers the sparse functions take)

_MODULES = (activation, array, blocks, boxes, deformable, distance, grids, image, indexing, loss,
            matrix, nn, parameter, pooling, segments, sparse, attention, collectives, fused_nn, inplace,
            placement, reshaping, sparse_parts)
__all__ = [name for module in _MODULES for name in module.__all__]

from .._arguments import check_all  # noqa: E402

check_all(globals(), __all__)  # raw errors from bad arguments: named Sporeling errors
