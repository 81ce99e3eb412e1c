"""``stop_gradient``: values that ``grad`` treats as constants.

    >>> import sporeling.expression as sx
    >>> f = lambda x: (x * sx.stop_gradient(x)).sum()      # d/dx = stop_gradient(x)
    >>> sx.grad(f)(sx.Tensor([2.0, 5.0]))
    Tensor(shape=[2], dtype=Float32, value= [2., 5.])
"""
from __future__ import annotations

from ..tensor.tensor import Tensor, wrap

__all__ = ["stop_gradient"]


def stop_gradient(x):
    """``x`` (a Tensor, or a tuple/list of them) cut from the gradient: the same data, no
    history. Other values pass through."""
    if isinstance(x, Tensor):
        return wrap(x._data)
    if isinstance(x, (tuple, list)):
        return type(x)(stop_gradient(v) for v in x)
    return x
