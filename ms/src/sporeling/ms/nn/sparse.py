"""Sparse cells of ``ms.nn``: ``SparseToDense`` and ``SparseTensorDenseMatmul`` over the
facade's ``COOTensor`` (densified with ``to_dense``, differentiable in the values)."""
from __future__ import annotations

from sporeling.core.errors import ArgumentError, ShapeError

from .. import ops as F
from ..ops.functional_array.sparse import COOTensor
from .cell import Cell

__all__ = ["SparseToDense", "SparseTensorDenseMatmul"]


class SparseToDense(Cell):
    """``construct(sparse_tensor)``: the dense Tensor of a ``COOTensor``."""

    def construct(self, sparse_tensor):
        if not isinstance(sparse_tensor, COOTensor):
            raise ArgumentError("SparseToDense takes a COOTensor", op="SparseToDense",
                                expected="COOTensor", got=type(sparse_tensor).__name__)
        return sparse_tensor.to_dense()


class SparseTensorDenseMatmul(Cell):
    """``construct(indices, values, sparse_shape, dense)``: ``A @ B`` with ``A`` the 2-d
    sparse matrix (``indices`` (nnz, 2), ``values`` (nnz,), ``sparse_shape``) and ``B``
    dense; ``adjoint_st``/``adjoint_dt`` transpose ``A``/``B`` first."""

    def __init__(self, adjoint_st=False, adjoint_dt=False):
        super().__init__()
        self.adjoint_st, self.adjoint_dt = bool(adjoint_st), bool(adjoint_dt)

    def construct(self, indices, values, sparse_shape, dense):
        shape = tuple(int(s) for s in sparse_shape)
        if len(shape) != 2 or len(dense.shape) != 2:
            raise ShapeError("sparse and dense operands must be 2-d",
                             op="SparseTensorDenseMatmul", expected="2-d shapes",
                             got=(shape, tuple(dense.shape)))
        a = COOTensor(indices, values, shape).to_dense()
        if self.adjoint_st:
            a = F.swapaxes(a, 0, 1)
        if self.adjoint_dt:
            dense = F.swapaxes(dense, 0, 1)
        return F.matmul(a, dense)
