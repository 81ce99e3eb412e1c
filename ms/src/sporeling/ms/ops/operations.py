"""``ms.ops.operations``: the module path model code imports primitives from
(``from mindspore.ops import operations as P``; ``P.ReduceSum()``, ``P.MatMul()``).

The facade's primitive classes (``ms.ops``'s), as 2.10's ``mindspore.ops.operations``
exposes them (``GradOperation`` is in ``ops.composite``, ``Primitive`` in ``ops.primitive``)."""
from .primitives import *  # noqa: F401,F403
from .primitives import __all__ as _prim_all

__all__ = [name for name in _prim_all if name not in ("GradOperation", "Primitive")]
