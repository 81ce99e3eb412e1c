"""``ms.ops``: MindSpore 2.x functional ops and primitive classes over ``sx.ops``.

Each part lives in its own module; this file only gathers their ``__all__``.
"""
from .functional_math import *      # noqa: F401,F403  elementwise, reduction, comparison, linalg, creation, random
from .functional_math import __all__ as _math_all
from .functional_array import *     # noqa: F401,F403  array, nn, loss, activation, parameter, image
from .functional_array import __all__ as _array_all
from .primitives import *           # noqa: F401,F403  primitive classes, GradOperation
from .primitives import __all__ as _prim_all
from .multitype import HyperMap, Map, MultitypeFuncGraph

__all__ = [*_math_all, *_array_all, *_prim_all, "HyperMap", "Map", "MultitypeFuncGraph"]

from ..common import tensor_methods as _tensor_methods  # noqa: E402

_tensor_methods.install()  # MindSpore's Tensor methods, over these functions

from . import composite, functional, operations, primitive  # noqa: E402,F401  MindSpore's module paths
