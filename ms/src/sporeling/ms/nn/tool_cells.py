"""MindSpore's small tensor-tool cells (``mindspore.nn.layer.basic``): ``Norm``, ``OneHot``,
``Tril``, ``Triu``, ``MatrixDiag``, ``MatrixDiagPart``, ``MatrixSetDiag``, ``Roll``,
``ClipByNorm``, ``L1Regularizer``; each is a few ``ms.ops`` calls."""
from __future__ import annotations

import math

import numpy as np

from sporeling.core.errors import ArgumentError, ShapeError
from sporeling.expression import Tensor

from .. import ops as F
from ..common import dtype as mstype
from .cell import Cell
from .math_cells import _axes

__all__ = ["Norm", "OneHot", "Tril", "Triu", "MatrixDiag", "MatrixDiagPart", "MatrixSetDiag",
           "Roll", "ClipByNorm", "L1Regularizer"]


class Norm(Cell):
    """The Euclidean norm ``sqrt(sum(x ** 2, axis))``; ``axis=()`` reduces every axis."""

    def __init__(self, axis=(), keep_dims=False):
        super().__init__()
        self.axis, self.keep_dims = axis, bool(keep_dims)

    def construct(self, x):
        axes = _axes(self.axis, len(x.shape))
        return F.sqrt(F.sum(F.square(x), axes, keepdim=self.keep_dims))


class OneHot(Cell):
    """One-hot vectors of ``depth`` along ``axis``: ``on_value`` where the index matches,
    ``off_value`` elsewhere, of type ``dtype``."""

    def __init__(self, axis=-1, depth=1, on_value=1.0, off_value=0.0, dtype=mstype.float32):
        super().__init__()
        if int(depth) < 0:
            raise ArgumentError("depth must be >= 0", op="OneHot", expected="depth >= 0",
                                got=depth)
        self.axis, self.depth, self.dtype = int(axis), int(depth), dtype
        self.on_value, self.off_value = on_value, off_value

    def construct(self, indices):
        hot = F.cast(F.one_hot(indices, self.depth, 1, 0, self.axis), self.dtype)
        return F.add(F.mul(hot, self.on_value - self.off_value), self.off_value)


class Tril(Cell):
    """The lower triangle (below diagonal ``k``) of the last two axes; the rest zero."""

    def construct(self, x, k=0):
        return F.tril(x, k)


class Triu(Cell):
    """The upper triangle (above diagonal ``k``) of the last two axes; the rest zero."""

    def construct(self, x, k=0):
        return F.triu(x, k)


class MatrixDiag(Cell):
    """(..., n) -> (..., n, n): each last-axis vector on the diagonal of a zero matrix."""

    def construct(self, input_x):
        return F.diag_embed(input_x)


class MatrixDiagPart(Cell):
    """(..., m, n) -> (..., min(m, n)): the main diagonal of each matrix."""

    def construct(self, input_x):
        return F.diagonal(input_x, 0, -2, -1)


def _embed(diagonal, rows, cols):
    """(..., k) -> (..., rows, cols) with ``diagonal`` on the main diagonal, k = min(rows,
    cols): ``eye(rows, k) @ diag(d) @ eye(k, cols)``."""
    k = min(rows, cols)
    left = Tensor(np.eye(rows, k, dtype=np.dtype(diagonal.dtype)))
    right = Tensor(np.eye(k, cols, dtype=np.dtype(diagonal.dtype)))
    return F.matmul(F.matmul(left, F.diag_embed(diagonal)), right)


class MatrixSetDiag(Cell):
    """``input_x`` (..., m, n) with its main diagonal replaced by ``diagonal``
    (..., min(m, n))."""

    def construct(self, input_x, diagonal):
        rows, cols = tuple(input_x.shape[-2:])
        want = tuple(input_x.shape[:-2]) + (min(rows, cols),)
        if tuple(diagonal.shape) != want:
            raise ShapeError("diagonal does not fit the matrices", op="MatrixSetDiag",
                             expected=want, got=tuple(diagonal.shape))
        off_diagonal = Tensor(1.0 - np.eye(rows, cols, dtype=np.dtype(input_x.dtype)))
        return F.add(F.mul(input_x, off_diagonal), _embed(diagonal, rows, cols))


class Roll(Cell):
    """Elements shifted by ``shift`` along ``axis`` (ints or equal-length tuples), wrapping
    around."""

    def __init__(self, shift, axis):
        super().__init__()
        shifts = (shift,) if isinstance(shift, int) else tuple(shift)
        axes = (axis,) if isinstance(axis, int) else tuple(axis)
        if len(shifts) != len(axes):
            raise ArgumentError("shift and axis differ in length", op="Roll",
                                expected=f"{len(axes)} shifts", got=len(shifts))
        self.shift, self.axis = shifts, axes

    def construct(self, input_x):
        return F.roll(input_x, self.shift, self.axis)


class ClipByNorm(Cell):
    """``x * clip_norm / max(||x||_2, clip_norm)``: ``x`` rescaled so its L2 norm over
    ``axis`` (None: every axis) is at most ``clip_norm``."""

    def __init__(self, axis=None):
        super().__init__()
        self.axis = axis

    def construct(self, x, clip_norm):
        axes = _axes(self.axis, len(x.shape))
        squares = F.sum(F.square(x), axes, keepdim=True)
        positive = F.greater(squares, 0.0)        # sqrt's gradient at 0 is infinite
        norm = F.where(positive, F.sqrt(F.where(positive, squares, F.ones_like(squares))),
                       squares)
        clip = F.cast(clip_norm, x.dtype) if isinstance(clip_norm, Tensor) else clip_norm
        return F.div(F.mul(x, clip), F.maximum(norm, F.add(F.zeros_like(norm), clip)))


class L1Regularizer(Cell):
    """``scale * sum(|weights|)``, a scalar; ``scale`` a finite number > 0."""

    def __init__(self, scale):
        super().__init__()
        if isinstance(scale, bool) or not isinstance(scale, (int, float)):
            raise ArgumentError("scale must be a number", op="L1Regularizer",
                                expected="int or float", got=type(scale).__name__)
        if not (math.isfinite(scale) and scale > 0):
            raise ArgumentError("scale must be a finite number > 0", op="L1Regularizer",
                                expected="0 < scale < inf", got=scale)
        self.scale = float(scale)

    def construct(self, weights):
        return F.mul(F.sum(F.abs(weights)), self.scale)
