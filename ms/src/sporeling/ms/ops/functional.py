"""``ms.ops.functional``: the module path model code imports functions from
(``from mindspore.ops import functional as F``; ``F.reshape(x, shape)``, ``F.cast``).

The facade's functional ops (``ms.ops``'s), as 2.10's ``mindspore.ops.functional`` exposes
them (2.10 has no ``scatter_sub`` or ``multi_label_margin_loss`` there)."""
from .functional_math import *   # noqa: F401,F403
from .functional_math import __all__ as _math_all
from .functional_array import *  # noqa: F401,F403
from .functional_array import __all__ as _array_all
from .primitives import Primitive  # noqa: F401

_NOT_IN_2_10 = {"scatter_sub", "multi_label_margin_loss"}
__all__ = [*(n for n in (*_math_all, *_array_all) if n not in _NOT_IN_2_10), "Primitive"]
