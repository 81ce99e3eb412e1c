"""primitives of ms.ops: MindSpore r2.3's operator classes (``ops.ReduceSum(keep_dims)(x,
axis)``, ``ops.MatMul``, ``ops.Softmax``...), each a thin adapter over a function, and
``ops.GradOperation`` (``ms/api/coverage.py`` counts them against 2.10)."""
from . import array_classes, grad, math_classes, nn_classes
from .array_classes import *  # noqa: F401,F403
from .base import Primitive
from .grad import GradOperation
from .hook import HookBackward
from .math_classes import *  # noqa: F401,F403
from .nn_classes import *  # noqa: F401,F403

__all__ = ["Primitive", "GradOperation", "HookBackward", *math_classes.__all__, *nn_classes.__all__,
           *array_classes.__all__]
