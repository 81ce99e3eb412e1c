"""The sparse-tensor plumbing of 2.10's ``mindspore.ops`` (``ops.functional``'s primitive
instances): making ``COOTensor``/``CSRTensor``/``RowTensor`` containers and reading their
parts, converting row indices and row pointers (``coo2csr``, ``csr2coo``), and the CSR
kernels ``csr_mul``, ``csr_div``, ``csr_gather``, ``csr_mv``, ``csr_reduce_sum``,
``csr_to_dense``. A CSR kernel takes a ``CSRTensor`` or its parts ``(indptr, indices,
values, dense_shape)``, as MindSpore unpacks one. Values stay sx Tensors: the kernels are
differentiable in the values and the dense operand (the sparsity pattern is read from the
index values, so the index arguments must be concrete)."""
from __future__ import annotations

import numpy as np

from ._common import SporelingError, ops, tensor, value_of
from .sparse import COOTensor, CSRTensor

__all__ = ["make_coo_tensor", "make_sparse_tensor", "make_csr_tensor", "make_row_tensor",
           "make_row_tensor_inner", "coo_tensor_get_indices", "coo_tensor_get_values",
           "coo_tensor_get_dense_shape", "csr_tensor_get_indptr", "csr_tensor_get_indices",
           "csr_tensor_get_values", "csr_tensor_get_dense_shape", "row_tensor_get_indices",
           "row_tensor_get_values", "row_tensor_get_dense_shape", "row_tensor_add", "coo2csr",
           "csr2coo", "csr_to_dense", "csr_mul", "csr_div", "csr_gather", "csr_mv",
           "csr_reduce_sum"]


class RowTensor:
    """Whole rows of a dense tensor: ``values[i]`` is row ``indices[i]`` of a tensor of
    ``dense_shape`` (the gradient of an embedding lookup); rows listed twice add up."""

    def __init__(self, indices, values, dense_shape):
        self.indices = ops.cast(tensor(indices), np.int64)
        self.values = tensor(values)
        self.dense_shape = tuple(int(s) for s in dense_shape)
        if tuple(self.values.shape[1:]) != self.dense_shape[1:] or \
                self.values.shape[0] != self.indices.shape[0]:
            raise SporelingError("one row of values per index", op="RowTensor",
                                 expected=f"values (n, {', '.join(map(str, self.dense_shape[1:]))})"
                                          " for n indices",
                                 got=f"indices {list(self.indices.shape)}, "
                                     f"values {list(self.values.shape)}")

    def to_dense(self):
        zeros = tensor(np.zeros(self.dense_shape, self.values.dtype))
        return ops.add_at(zeros, (self.indices,), self.values)

    def __repr__(self):
        return (f"RowTensor(dense_shape={list(self.dense_shape)}, "
                f"indices={value_of(self.indices).tolist()})")


def make_coo_tensor(indices, values, dense_shape):
    """A ``COOTensor`` of ``indices`` (nnz, ndim), ``values`` (nnz,) and ``dense_shape``."""
    return COOTensor(indices, values, dense_shape)


make_sparse_tensor = make_coo_tensor


def make_csr_tensor(indptr, indices, values, dense_shape):
    """A ``CSRTensor`` of row pointers, column indices, values and ``dense_shape``."""
    return CSRTensor(indptr, indices, values, dense_shape)


def make_row_tensor(indices, values, dense_shape):
    """A :class:`RowTensor`."""
    return RowTensor(indices, values, dense_shape)


make_row_tensor_inner = make_row_tensor


def _check(op, x, kind):
    if not isinstance(x, kind):
        raise SporelingError(f"needs a {kind.__name__}", op=op, expected=kind.__name__,
                             got=type(x).__name__)
    return x


def coo_tensor_get_indices(coo_tensor):
    """The ``(nnz, ndim)`` indices of a COOTensor."""
    return _check("ops.coo_tensor_get_indices", coo_tensor, COOTensor).indices


def coo_tensor_get_values(coo_tensor):
    """The stored values of a COOTensor."""
    return _check("ops.coo_tensor_get_values", coo_tensor, COOTensor).values


def coo_tensor_get_dense_shape(coo_tensor):
    """The dense shape of a COOTensor (a tuple)."""
    return _check("ops.coo_tensor_get_dense_shape", coo_tensor, COOTensor).shape


def csr_tensor_get_indptr(csr_tensor):
    """The row pointers of a CSRTensor."""
    return _check("ops.csr_tensor_get_indptr", csr_tensor, CSRTensor).indptr


def csr_tensor_get_indices(csr_tensor):
    """The column indices of a CSRTensor."""
    return _check("ops.csr_tensor_get_indices", csr_tensor, CSRTensor).indices


def csr_tensor_get_values(csr_tensor):
    """The stored values of a CSRTensor."""
    return _check("ops.csr_tensor_get_values", csr_tensor, CSRTensor).values


def csr_tensor_get_dense_shape(csr_tensor):
    """The dense shape of a CSRTensor (a tuple)."""
    return _check("ops.csr_tensor_get_dense_shape", csr_tensor, CSRTensor).shape


def row_tensor_get_indices(row_tensor):
    """The row indices of a RowTensor."""
    return _check("ops.row_tensor_get_indices", row_tensor, RowTensor).indices


def row_tensor_get_values(row_tensor):
    """The rows of a RowTensor."""
    return _check("ops.row_tensor_get_values", row_tensor, RowTensor).values


def row_tensor_get_dense_shape(row_tensor):
    """The dense shape of a RowTensor (a tuple)."""
    return _check("ops.row_tensor_get_dense_shape", row_tensor, RowTensor).dense_shape


def row_tensor_add(x, y):
    """The sum of two RowTensors of one dense shape (their rows together)."""
    for v in (x, y):
        _check("ops.row_tensor_add", v, RowTensor)
    if x.dense_shape != y.dense_shape:
        raise SporelingError("dense shapes differ", op="ops.row_tensor_add",
                             expected=f"{list(x.dense_shape)}", got=f"{list(y.dense_shape)}")
    return RowTensor(ops.concat([x.indices, y.indices], axis=0),
                     ops.concat([x.values, ops.cast(y.values, x.values.dtype)], axis=0),
                     x.dense_shape)


def _index_values(op, what, x) -> np.ndarray:
    """The integer values of an index tensor (a named error for anything else)."""
    values = value_of(tensor(x), op, what)
    if values.dtype.kind not in "iu":
        raise SporelingError(f"{what} must be integers", op=op, expected="an int tensor",
                             got=str(values.dtype))
    return values.astype(np.int64)


def coo2csr(row_indices, height):
    """Row pointers (``height + 1``) from the sorted row index of each stored value."""
    rows = _index_values("ops.coo2csr", "row_indices", row_indices)
    counts = np.bincount(rows, minlength=int(height))
    return tensor(np.concatenate([[0], np.cumsum(counts)]).astype(rows.dtype))


def csr2coo(indptr, nnz):
    """The row index of each of the ``nnz`` stored values, from row pointers."""
    ptr = _index_values("ops.csr2coo", "indptr", indptr)
    rows = np.repeat(np.arange(ptr.size - 1), np.diff(ptr))
    if rows.size != int(nnz):
        raise SporelingError("nnz differs from the row pointers", op="ops.csr2coo",
                             expected=f"nnz {rows.size}", got=nnz)
    return tensor(rows)


def _csr(op, args):
    """``(CSRTensor, the remaining arguments)`` from a CSRTensor or its four parts."""
    if args and isinstance(args[0], CSRTensor):
        return args[0], args[1:]
    if len(args) < 4:
        raise SporelingError("needs a CSRTensor or (indptr, indices, values, dense_shape)",
                             op=op, expected="a CSRTensor", got=f"{len(args)} arguments")
    return CSRTensor(*args[:4]), args[4:]


def _positions(csr):
    return tensor(csr.rows()), csr.indices


def csr_to_dense(*args):
    """The dense matrix of a CSRTensor (or its parts)."""
    csr, _ = _csr("ops.csr_to_dense", args)
    return csr.to_dense()


def _at_nonzeros(op, args):
    csr, (dense,) = _csr(op, args)
    full = ops.broadcast_to(tensor(dense), csr.shape)
    return csr, ops.getitem(full, _positions(csr))


def csr_mul(*args):
    """The stored values of ``csr * dense`` (``dense`` broadcast to the matrix)."""
    csr, picked = _at_nonzeros("ops.csr_mul", args)
    return ops.mul(csr.values, picked)


def csr_div(*args):
    """The stored values of ``csr / dense`` (``dense`` broadcast to the matrix)."""
    csr, picked = _at_nonzeros("ops.csr_div", args)
    return ops.div(csr.values, picked)


def csr_gather(indptr, indices, dense, sparse_shape):
    """The entries of ``dense`` at the positions a CSR pattern stores."""
    pattern = CSRTensor(indptr, indices, np.zeros(tensor(indices).shape[0], np.float32),
                        sparse_shape)
    return ops.getitem(tensor(dense), _positions(pattern))


def csr_mv(*args):
    """The product of a CSR matrix (m, n) and a dense ``(n, 1)`` vector: ``(m, 1)``."""
    csr, (dense,) = _csr("ops.csr_mv", args)
    return ops.matmul(csr.to_dense(), tensor(dense))


def csr_reduce_sum(*args):
    """The sums of a CSR matrix along ``axis`` (kept as size 1)."""
    csr, (axis,) = _csr("ops.csr_reduce_sum", args)
    return ops.sum(csr.to_dense(), axis=int(axis), keepdims=True)
