"""Sparse functions of MindSpore r2.3 ``mindspore.ops`` over small ``COOTensor`` /
``CSRTensor`` containers (indices + values + dense shape). The element-wise ``coo_*`` /
``csr_*`` functions apply their function to the stored values only, as MindSpore does (so
``coo_cos`` leaves the implicit zeros at 0); the values are sx Tensors and keep gradients.
Conversions, ``coo_add``, ``coo_concat``, ``csr_add``, ``csr_mm`` and ``csr_softmax``
rearrange the sparsity pattern and are eager only."""
from __future__ import annotations

import numpy as np

from sporeling.ms.common import eager_only

from ._common import SporelingError, float_like, ops, tensor, value_of

__all__ = ["dense_to_sparse_coo", "dense_to_sparse_csr",
           "csr_to_coo", "coo_add", "coo_concat", "csr_add", "csr_mm", "csr_softmax"]


def _index(indices):
    """Index tensors keep an int32/int64 dtype (as MindSpore's do); others become int64."""
    t = tensor(indices)
    return t if np.dtype(t.dtype) in (np.int32, np.int64) else ops.cast(t, np.int64)


class COOTensor:
    """Coordinates ``indices`` (nnz, ndim) int, ``values`` (nnz,), dense ``shape``."""

    def __init__(self, indices, values, shape):
        self.indices = _index(indices)
        self.values = tensor(values)
        self.shape = tuple(int(s) for s in shape)
        if self.indices.ndim != 2 or self.indices.shape[0] != self.values.shape[0]:
            raise SporelingError("indices must be (nnz, ndim) with one value each",
                                 op="COOTensor", expected="indices (nnz, ndim), values (nnz,)",
                                 got=f"indices {list(self.indices.shape)}, "
                                     f"values {list(self.values.shape)}")

    @property
    def dtype(self):
        return self.values.dtype

    def astype(self, dtype):
        """The same pattern with the values cast to ``dtype``."""
        return COOTensor(self.indices, ops.cast(self.values, dtype), self.shape)

    def to_dense(self):
        """The dense tensor (differentiable in the values)."""
        zeros = tensor(np.zeros(self.shape, self.values.dtype))
        key = tuple(ops.getitem(self.indices, (slice(None), i)) for i in range(len(self.shape)))
        return ops.add_at(zeros, key, self.values)

    def __repr__(self):
        return (f"COOTensor(shape={list(self.shape)}, dtype={self.dtype}, "
                f"indices={value_of(self.indices).tolist()}, "
                f"values={value_of(self.values).tolist()})")


class CSRTensor:
    """Compressed rows: ``indptr`` (rows + 1,), column ``indices`` (nnz,), ``values``
    (nnz,), dense ``shape`` (2-d)."""

    def __init__(self, indptr, indices, values, shape):
        self.indptr = _index(indptr)
        self.indices = _index(indices)
        self.values = tensor(values)
        self.shape = tuple(int(s) for s in shape)
        if len(self.shape) != 2 or self.indptr.shape[0] != self.shape[0] + 1:
            raise SporelingError("a CSRTensor is 2-d with rows + 1 row pointers",
                                 op="CSRTensor", expected=f"indptr of {self.shape[0] + 1}",
                                 got=f"shape {list(self.shape)}, "
                                     f"indptr {list(self.indptr.shape)}")

    @property
    def dtype(self):
        return self.values.dtype

    def astype(self, dtype):
        """The same pattern with the values cast to ``dtype``."""
        return CSRTensor(self.indptr, self.indices, ops.cast(self.values, dtype), self.shape)

    def rows(self) -> np.ndarray:
        """The row of each stored value (from the row pointers)."""
        return np.repeat(np.arange(self.shape[0]), np.diff(value_of(self.indptr)))

    def to_dense(self):
        zeros = tensor(np.zeros(self.shape, self.values.dtype))
        return ops.add_at(zeros, (tensor(self.rows()), self.indices), self.values)

    def __repr__(self):
        return (f"CSRTensor(shape={list(self.shape)}, dtype={self.dtype}, "
                f"indptr={value_of(self.indptr).tolist()}, "
                f"indices={value_of(self.indices).tolist()}, "
                f"values={value_of(self.values).tolist()})")


@eager_only("ops.dense_to_sparse_coo")
def dense_to_sparse_coo(tensor_):
    """The nonzero elements of a dense tensor as a COOTensor (row-major order)."""
    t = tensor(tensor_)
    idx = np.argwhere(value_of(t))
    key = tuple(tensor(idx[:, i]) for i in range(t.ndim))
    return COOTensor(idx, ops.getitem(t, key), t.shape)


@eager_only("ops.dense_to_sparse_csr")
def dense_to_sparse_csr(tensor_):
    """The nonzero elements of a dense matrix as a CSRTensor."""
    t = tensor(tensor_)
    if t.ndim != 2:
        raise SporelingError("a CSRTensor is 2-d", op="ops.dense_to_sparse_csr",
                             expected="a matrix", got=f"shape {list(t.shape)}")
    rows, cols = np.nonzero(value_of(t))
    indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=t.shape[0]))])
    return CSRTensor(indptr, cols, ops.getitem(t, (tensor(rows), tensor(cols))), t.shape)


@eager_only("ops.csr_to_coo")
def csr_to_coo(tensor_):
    """The same matrix in coordinate form."""
    if not isinstance(tensor_, CSRTensor):
        raise SporelingError("csr_to_coo takes a CSRTensor", op="ops.csr_to_coo",
                             expected="CSRTensor", got=type(tensor_).__name__)
    idx = np.stack([tensor_.rows(), value_of(tensor_.indices)], axis=1)
    return COOTensor(idx, tensor_.values, tensor_.shape)


# element-wise functions of the stored values, from sx ops (differentiable)
def _sqrt1(x, sign):
    return ops.sqrt(ops.mul(x, x) * sign + 1.0) if sign > 0 else ops.sqrt(1.0 - ops.mul(x, x))


_VALUE_FNS = {
    "abs": ops.abs, "ceil": ops.ceil, "floor": ops.floor, "round": ops.round, "neg": ops.neg,
    "exp": ops.exp, "expm1": ops.expm1, "log": ops.log, "log1p": ops.log1p, "sqrt": ops.sqrt,
    "square": ops.square, "sin": ops.sin, "cos": ops.cos, "tanh": ops.tanh,
    "sigmoid": ops.sigmoid, "relu": ops.relu, "isfinite": ops.isfinite, "isinf": ops.isinf,
    "isnan": ops.isnan, "inv": ops.reciprocal,
    "relu6": lambda x: ops.clip(x, 0.0, 6.0),
    "softsign": lambda x: x / (ops.abs(x) + 1.0),
    "tan": lambda x: ops.sin(x) / ops.cos(x),
    "sinh": lambda x: (ops.exp(x) - ops.exp(ops.neg(x))) * 0.5,
    "cosh": lambda x: (ops.exp(x) + ops.exp(ops.neg(x))) * 0.5,
    "asin": lambda x: ops.atan2(x, _sqrt1(x, -1)),
    "acos": lambda x: ops.atan2(_sqrt1(x, -1), x),
    "atan": lambda x: ops.atan2(x, ops.mul(x, 0.0) + 1.0),
    "asinh": lambda x: ops.sign(x) * ops.log(ops.abs(x) + _sqrt1(x, 1)),
    "acosh": lambda x: ops.log(x + ops.sqrt(ops.mul(x, x) - 1.0)),
    "atanh": lambda x: ops.log((x + 1.0) / (1.0 - x)) * 0.5,
}
_FLOAT_ONLY = {"exp", "expm1", "log", "log1p", "sqrt", "sin", "cos", "tanh", "sigmoid", "tan",
               "sinh", "cosh", "asin", "acos", "atan", "asinh", "acosh", "atanh", "inv",
               "softsign"}


def _make(kind, name):
    fn = _VALUE_FNS[name]

    def apply(x):
        cls = COOTensor if kind == "coo" else CSRTensor
        if not isinstance(x, cls):
            raise SporelingError(f"{kind}_{name} takes a {cls.__name__}", op=f"ops.{kind}_{name}",
                                 expected=cls.__name__, got=type(x).__name__)
        values = float_like(x.values) if name in _FLOAT_ONLY else x.values
        out = fn(values)
        if kind == "coo":
            return COOTensor(x.indices, out, x.shape)
        return CSRTensor(x.indptr, x.indices, out, x.shape)
    apply.__name__ = apply.__qualname__ = f"{kind}_{name}"
    apply.__doc__ = (f"``{name}`` of the stored values of a {kind.upper()} tensor (the "
                     f"sparsity pattern is kept).")
    return apply


for _kind in ("coo", "csr"):
    for _name in _VALUE_FNS:
        globals()[f"{_kind}_{_name}"] = _make(_kind, _name)
        __all__.append(f"{_kind}_{_name}")
del _kind, _name


def _coo_from_dense(dense, dtype):
    idx = np.argwhere(dense)
    return COOTensor(idx, dense[tuple(idx.T)].astype(dtype), dense.shape)


@eager_only("ops.coo_add")
def coo_add(x1, x2, thresh):
    """x1 + x2 (same shape); sums with |value| < ``thresh`` are dropped."""
    if x1.shape != x2.shape:
        raise SporelingError("shapes differ", op="ops.coo_add", expected=list(x1.shape),
                             got=list(x2.shape))
    dense = value_of(x1.to_dense()) + value_of(x2.to_dense())
    present = (value_of(COOTensor(x1.indices, np.ones(x1.values.shape[0]), x1.shape).to_dense())
               + value_of(COOTensor(x2.indices, np.ones(x2.values.shape[0]),
                                    x2.shape).to_dense())) > 0
    keep = present & (np.abs(dense) >= float(value_of(thresh)))
    idx = np.argwhere(keep)
    return COOTensor(idx, dense[tuple(idx.T)].astype(x1.dtype), x1.shape)


@eager_only("ops.coo_concat")
def coo_concat(sp_input, concat_dim=0):
    """COO tensors joined along ``concat_dim``."""
    parts = list(sp_input)
    axis = int(concat_dim) % len(parts[0].shape)
    offset, indices, values = 0, [], []
    for part in parts:
        idx = value_of(part.indices).copy()
        idx[:, axis] += offset
        offset += part.shape[axis]
        indices.append(idx)
        values.append(value_of(part.values))
    shape = list(parts[0].shape)
    shape[axis] = offset
    order = np.lexsort(np.concatenate(indices).T[::-1])
    return COOTensor(np.concatenate(indices)[order], np.concatenate(values)[order], shape)


def _csr_from_dense(dense, mask, dtype):
    rows, cols = np.nonzero(mask)
    indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=dense.shape[0]))])
    return CSRTensor(indptr, cols, dense[rows, cols].astype(dtype), dense.shape)


def _pattern(x):
    return value_of(CSRTensor(x.indptr, x.indices, np.ones(x.values.shape[0]),
                              x.shape).to_dense()) > 0


@eager_only("ops.csr_add")
def csr_add(a, b, alpha, beta):
    """alpha * a + beta * b on the union of the patterns."""
    dense = float(value_of(alpha)) * value_of(a.to_dense()) + float(value_of(beta)) * \
        value_of(b.to_dense())
    return _csr_from_dense(dense, _pattern(a) | _pattern(b), a.dtype)


@eager_only("ops.csr_mm")
def csr_mm(a, b, trans_a=False, trans_b=False, adjoint_a=False, adjoint_b=False):
    """Matrix product of a CSRTensor with a CSRTensor (a CSRTensor) or a dense matrix."""
    left = value_of(a.to_dense())
    if trans_a or adjoint_a:
        left = left.T
    if isinstance(b, CSRTensor):
        right = value_of(b.to_dense())
        right = right.T if trans_b or adjoint_b else right
        product = left @ right
        return _csr_from_dense(product, product != 0, a.dtype)
    right = value_of(b)
    right = right.T if trans_b or adjoint_b else right
    return tensor((left @ right).astype(a.dtype))


@eager_only("ops.csr_softmax")
def csr_softmax(logits, dtype=None):
    """Softmax of each row over its stored values."""
    values = value_of(logits.values).astype(np.float64)
    rows = logits.rows()
    out = np.empty_like(values)
    for r in np.unique(rows):
        sel = rows == r
        e = np.exp(values[sel] - values[sel].max())
        out[sel] = e / e.sum()
    from ._common import to_numpy
    target = to_numpy(dtype) if dtype is not None else logits.dtype
    return CSRTensor(logits.indptr, logits.indices, out.astype(target), logits.shape)
