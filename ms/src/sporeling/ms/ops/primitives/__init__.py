"""primitives of ms.ops: MindSpore's operator classes (``ops.ReduceSum(keep_dims)(x,
axis)``, ``ops.MatMul``, ``ops.Softmax``...), each a thin adapter over a function, and
``ops.GradOperation`` (``ms/api/coverage.py`` counts them against 2.10). The hand-written
ones are in ``*_classes.py``; the ``*_table.py`` modules declare the rest one line each."""
from . import (array_classes, array_table, grad, math_classes, math_table, misc_table,
               nn_classes, nn_table, optim_table)
from .array_classes import *  # noqa: F401,F403
from .array_table import *  # noqa: F401,F403
from .base import Primitive
from .custom import Custom
from .grad import GradOperation
from .hook import HookBackward
from .math_classes import *  # noqa: F401,F403
from .math_table import *  # noqa: F401,F403
from .misc_table import *  # noqa: F401,F403
from .nn_classes import *  # noqa: F401,F403
from .nn_table import *  # noqa: F401,F403
from .optim_table import *  # noqa: F401,F403

__all__ = ["Primitive", "GradOperation", "HookBackward", "Custom", *math_classes.__all__,
           *nn_classes.__all__, *array_classes.__all__, *math_table.__all__,
           *array_table.__all__, *nn_table.__all__, *optim_table.__all__, *misc_table.__all__]
