"""MindSpore's math cells (``mindspore.nn.layer.math``): ``ReduceLogSumExp``, ``Range``,
``LGamma``, ``DiGamma``, ``IGamma``, ``LBeta``, ``MatMul``, ``Moments``, ``MatInverse``,
``MatDet``. Each is a few ``ms.ops`` calls (differentiable, traceable).
"""
from __future__ import annotations


import numpy as np

from sporeling.core.errors import ArgumentError
from sporeling.expression import Tensor

from .. import ops as F
from ..common import dtype as mstype
from .cell import Cell

__all__ = ["ReduceLogSumExp", "Range", "LGamma", "DiGamma", "IGamma", "LBeta", "MatMul",
           "Moments", "MatInverse", "MatDet"]


def _axes(axis, ndim):
    """MindSpore's reduction axis: ``()`` (or None) for every axis, an int, or a tuple."""
    if axis is None or axis == () or axis == []:
        return tuple(range(ndim))
    return (axis,) if isinstance(axis, int) else tuple(axis)


def _check_type(owner, name, value, types):
    if not isinstance(value, types) or (bool not in types and isinstance(value, bool)):
        raise ArgumentError(f"wrong type of {name}", op=owner,
                            expected=" or ".join(t.__name__ for t in types),
                            got=type(value).__name__)


class ReduceLogSumExp(Cell):
    """``log(sum(exp(x), axis))``, computed as ``log(sum(exp(x - max))) + max`` so large
    inputs do not overflow; ``axis=()`` reduces every axis."""

    def __init__(self, axis, keep_dims=False):
        super().__init__()
        _check_type("ReduceLogSumExp", "axis", axis, (int, list, tuple))
        _check_type("ReduceLogSumExp", "keep_dims", keep_dims, (bool,))
        self.axis, self.keep_dims = axis, keep_dims

    def construct(self, x):
        axes = _axes(self.axis, len(x.shape))
        top = F.stop_gradient(F.amax(x, axes, keepdims=True))
        total = F.sum(F.exp(F.sub(x, top)), axes, keepdim=True)
        out = F.add(F.log(total), top)
        return out if self.keep_dims else F.squeeze(out, axes)


class Range(Cell):
    """The constant ``arange(start, limit, delta)`` (``limit=None``: ``arange(start)``):
    int32 when every bound is an int, else float32. ``construct()`` takes no input."""

    def __init__(self, start, limit=None, delta=1):
        super().__init__()
        if delta == 0:
            raise ArgumentError("delta can not be zero", op="Range", expected="delta != 0",
                                got=delta)
        data = np.arange(start, limit, delta) if limit is not None else np.arange(start)
        dtype = np.float32 if data.dtype.kind == "f" else np.int32
        self.result_tensor = Tensor(data.astype(dtype))

    def construct(self):
        return self.result_tensor


class LGamma(Cell):
    """``log|Gamma(x)|`` elementwise (float16/float32 in MindSpore); +inf at non-positive
    integers and at +-inf."""

    def construct(self, x):
        return F.lgamma(x)


class DiGamma(Cell):
    """The digamma function ``d/dx log Gamma(x)`` elementwise (``ops.digamma``)."""

    def construct(self, x):
        return F.digamma(x)


class IGamma(Cell):
    """The regularized lower incomplete gamma function ``P(a, x)`` (``ops.igamma``)."""

    def construct(self, a, x):
        return F.igamma(a, x)


class LBeta(Cell):
    """``log|B(x, y)| = lgamma(x) + lgamma(y) - lgamma(x + y)`` elementwise (broadcast)."""

    def construct(self, x, y):
        return F.sub(F.add(F.lgamma(x), F.lgamma(y)), F.lgamma(F.add(x, y)))


class MatMul(Cell):
    """Batched (broadcast) matrix product; a 1-d operand is a row (``x1``) or column (``x2``)
    vector whose axis is dropped from the result, as NumPy's ``matmul`` does. The output is
    cast to ``dtype``."""

    def __init__(self, transpose_x1=False, transpose_x2=False, dtype=mstype.float32):
        super().__init__()
        _check_type("MatMul", "transpose_x1", transpose_x1, (bool,))
        _check_type("MatMul", "transpose_x2", transpose_x2, (bool,))
        self.transpose_x1, self.transpose_x2, self.dtype = transpose_x1, transpose_x2, dtype

    def construct(self, x1, x2):
        if self.transpose_x1 and len(x1.shape) > 1:
            x1 = F.swapaxes(x1, -1, -2)
        if self.transpose_x2 and len(x2.shape) > 1:
            x2 = F.swapaxes(x2, -1, -2)
        return F.cast(F.matmul(x1, x2), self.dtype)


class Moments(Cell):
    """``(mean, variance)`` over ``axis`` (None: every axis); population variance.
    float16 inputs are reduced in float32 and cast back."""

    def __init__(self, axis=None, keep_dims=None):
        super().__init__()
        if axis is not None:
            _check_type("Moments", "axis", axis, (int, tuple))
        self.axis = axis
        self.keep_dims = bool(keep_dims) if keep_dims is not None else False

    def construct(self, x):
        half = x.dtype == mstype.float16
        if half:
            x = F.cast(x, mstype.float32)
        axes = _axes(self.axis, len(x.shape))
        mean = F.mean(x, axes, keep_dims=True)
        variance = F.mean(F.square(F.sub(x, mean)), axes, keep_dims=True)
        if not self.keep_dims:
            mean, variance = F.squeeze(mean, axes), F.squeeze(variance, axes)
        if half:
            mean, variance = F.cast(mean, mstype.float16), F.cast(variance, mstype.float16)
        return mean, variance


class MatInverse(Cell):
    """The inverse of each (batched) square matrix (``ops.inverse``)."""

    def construct(self, a):
        return F.inverse(a)


class MatDet(Cell):
    """The determinant of each (batched) square matrix (``ops.det``)."""

    def construct(self, a):
        return F.det(a)
