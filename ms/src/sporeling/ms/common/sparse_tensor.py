"""MindSpore 2.10's deprecated sparse containers ``RowTensor`` and ``SparseTensor`` (use
``COOTensor``): plain holders of their parts, usable in PyNative and inside ``ms.jit``
(the tracer runs Python objects' code at compile time)."""
from __future__ import annotations

import numpy as np

from sporeling.core import SporelingError
from sporeling.expression import Tensor

__all__ = ["RowTensor", "SparseTensor"]


def _tensor(value):
    return value if isinstance(value, Tensor) or hasattr(value, "_interpreter") \
        else Tensor(np.asarray(value))


def _shape(op: str, shape) -> tuple:
    if not isinstance(shape, (tuple, list)) or not all(
            isinstance(n, (int, np.integer)) and not isinstance(n, bool) for n in shape):
        raise SporelingError("shape must be a tuple of ints", op=op,
                             expected="tuple(int)", got=repr(shape))
    return tuple(int(n) for n in shape)


class RowTensor:
    """Slices of a dense tensor of ``shape``: ``dense[indices[i]] = values[i]`` (rows not
    listed are zeros). ``RowTensor(row_tensor=other)`` copies another one's parts."""

    def __init__(self, indices=None, values=None, shape=None, row_tensor=None):
        if row_tensor is not None:
            if not isinstance(row_tensor, RowTensor):
                raise TypeError(f"Expect input `row_tensor` to be a RowTensor, but got "
                                f"{type(row_tensor)}")
            if not (indices is None and values is None and shape is None):
                raise TypeError("If input `row_tensor` is provided, `indices`, `values`, "
                                "`shapes` should all be `None`")
            indices, values, shape = row_tensor.indices, row_tensor.values, \
                row_tensor.dense_shape
        self._indices, self._values = _tensor(indices), _tensor(values)
        self._shape = _shape("RowTensor", shape)

    @property
    def indices(self):
        return self._indices

    @property
    def values(self):
        return self._values

    @property
    def dense_shape(self) -> tuple:
        return self._shape

    def __repr__(self) -> str:
        return (f"RowTensor(indices={self._indices.tolist()}, values shape "
                f"{list(self._values.shape)}, dense_shape={self._shape})")


class SparseTensor:
    """The nonzero elements of a dense tensor of ``shape``: ``dense[indices[i]] =
    values[i]`` (``indices`` is ``(N, ndims)``)."""

    def __init__(self, indices, values, shape):
        self.indices, self.values = _tensor(indices), _tensor(values)
        self.shape = _shape("SparseTensor", shape)

    def __repr__(self) -> str:
        return (f"SparseTensor(indices={self.indices.tolist()}, values="
                f"{self.values.tolist()}, shape={self.shape})")
