"""Indexing Tensors: ``t[key]`` (differentiable, through ``ops.getitem``) and
``t[key] = value`` (in place on the data, not differentiable; in Graph mode the tensor
takes a new value, ``ops.set_at``, which is differentiable).

    >>> import sporeling.expression as sx
    >>> t = sx.Tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> t[1, ::2]
    Tensor(shape=[2], dtype=Float32, value= [4., 6.])
    >>> t[t > 4.0]
    Tensor(shape=[2], dtype=Float32, value= [5., 6.])
    >>> t[:, 0] = 0.0
    >>> t.tolist()
    [[0.0, 2.0, 3.0], [0.0, 5.0, 6.0]]
"""
from __future__ import annotations

import numpy as np

from sporeling.core import SporelingError
from sporeling.compiler import ops

__all__ = ["TensorIndexing"]


def _traced_key(key) -> bool:
    from .tensor import Tensor, _traced
    keys = key if isinstance(key, tuple) else (key,)
    return any(isinstance(k, Tensor) and _traced(k._data) for k in keys)


def _plain_key(key):
    """``key`` with Tensors replaced by their arrays (for in-place NumPy assignment)."""
    from .tensor import Tensor
    if isinstance(key, tuple):
        return tuple(k._data if isinstance(k, Tensor) else k for k in key)
    return key._data if isinstance(key, Tensor) else key


class TensorIndexing:
    """``__getitem__``, ``__setitem__`` and iteration over the first axis."""
    __slots__ = ()

    def __getitem__(self, key):
        """NumPy indexing: ints, slices, ``None``, ``...``, boolean masks, integer arrays or
        Tensors. Differentiable; basic indices give views of the data."""
        return ops.getitem(self, key)

    def __setitem__(self, key, value) -> None:
        """Write ``value`` into ``self[key]`` in place (NumPy semantics, cast to this
        tensor's dtype). Eagerly not differentiable: an error while ``grad`` is recording
        this tensor or ``value``; use ``ops.where`` or ``ops.add_at`` to compute with
        gradients. In Graph mode the tensor takes the value ``ops.set_at`` computes
        (differentiable); a Parameter is written after the run."""
        from ..autograd.state import STATE
        from .parameter import Parameter
        from .tensor import Tensor, _traced
        data = value._data if isinstance(value, Tensor) else np.asarray(value)
        if _traced(self._data) or _traced(data) or _traced_key(key):
            # Graph mode: this Tensor becomes the new value -- its data and, under grad, its
            # place on the tape (the caller's tensor, a view's base, are not written: the
            # compiled program is functional)
            new = ops.set_at(self, key, value)
            if isinstance(self, Parameter):
                self._data = new._data
            else:
                self._data, self._node, self._index, self._tape = \
                    new._data, new._node, new._index, new._tape
            return
        tape = STATE.tape
        for t, what in ((self, "the tensor written to"), (value, "the value written")):
            if isinstance(t, Tensor) and tape is not None and t._node is not None \
                    and t._tape is tape:
                raise SporelingError("in-place assignment is not differentiable", op="setitem",
                                     expected="tensors that grad is not recording",
                                     got=f"{what} is part of the graph being differentiated",
                                     hint="compute the new tensor with ops.where or "
                                          "ops.add_at, or detach() first")
        self._data[_plain_key(key)] = data.astype(self._data.dtype, copy=False)

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]
