"""``ms.common``: dtype objects, initializers, ``Tensor``/``Parameter`` (MindSpore's
``mindspore.common`` layout: ``from sporeling.ms.common import dtype as mstype``,
``from sporeling.ms.common.initializer import Normal``, ``...common.parameter import
Parameter``) and ``eager_only`` for the facade's own modules."""
from sporeling.core import set_seed

from . import api, dtype, initializer, parameter, tensor
from .dtype import to_numpy
from .eager import EagerOnlyError, eager_only
from .parameter import Parameter, ParameterTuple
from .tensor import Tensor

__all__ = ["api", "dtype", "initializer", "parameter", "tensor", "Tensor", "Parameter",
           "ParameterTuple", "set_seed", "to_numpy", "eager_only", "EagerOnlyError"]
