"""``ms.ops.composite``: ``import mindspore.ops.composite as C``; ``C.GradOperation(...)``
the composite functions 2.10 keeps there (``C.clip_by_value``, ``C.matmul``, ...) and
``HyperMap``, ``Map``, ``MultitypeFuncGraph``."""
from . import functional as _F
from .multitype import HyperMap, Map, MultitypeFuncGraph
from .primitives import GradOperation

_IN_2_10 = ("batch_dot", "clip_by_global_norm", "clip_by_value", "count_nonzero", "cummin",
            "dot", "gamma", "laplace", "matmul", "mm", "multinomial", "normal", "ones_like",
            "poisson", "repeat_elements", "repeat_interleave", "sequence_mask", "tensor_dot",
            "uniform", "vecdot", "zeros_like")
__all__ = ["GradOperation", "HyperMap", "Map", "MultitypeFuncGraph",
           *(n for n in _IN_2_10 if n in _F.__all__)]
globals().update({n: getattr(_F, n) for n in __all__[4:]})
