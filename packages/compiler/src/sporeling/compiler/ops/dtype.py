"""cast: change a value's dtype."""
from __future__ import annotations

from sporeling.core import dtypes

from ..core import Aval, Primitive, bind, def_backward
from ._util import as_operand

__all__ = ["cast"]

cast_p = Primitive("cast", core=True, elementwise=True, fusible=True, amp="never")


@cast_p.def_abstract_eval
def _cast_aval(x, *, dtype):
    return Aval(tuple(x.shape), dtypes.dtype(dtype))


@def_backward(cast_p, uses=())
def _cast_bwd(ct, x, *, out, dtype):
    if not dtypes.is_floating(x.dtype):
        return (None,)
    return (cast(ct, x.dtype),)


def cast(x, dtype):
    """``x`` as ``dtype`` (a no-op when it already is). Gradients flow between float types.

        >>> import numpy as np
        >>> cast(np.array([1.7, -2.2]), "int32")
        array([ 1, -2], dtype=int32)
    """
    x, dtype = as_operand(x), dtypes.dtype(dtype)
    if x.dtype == dtype:
        return x
    return bind(cast_p, x, dtype=dtype)
