"""Linear-algebra kernels."""
from __future__ import annotations

import numpy as np

from sporeling.core import ShapeError

from .table import broadcast_shape, define, output, result_dtype


def matmul_shape(sa: tuple[int, ...], sb: tuple[int, ...]) -> tuple[int, ...]:
    """``np.matmul``'s result shape, or a ShapeError saying which axes disagree."""
    if not sa or not sb:
        raise ShapeError("matmul needs at least 1-d operands", op="matmul",
                         expected="ndim >= 1 for both", got=f"{sa} and {sb}")
    a = sa if len(sa) > 1 else (1,) + sa
    b = sb if len(sb) > 1 else sb + (1,)
    if a[-1] != b[-2]:
        raise ShapeError("inner dimensions differ", op="matmul",
                         expected="a.shape[-1] == b.shape[-2]", got=f"{sa} and {sb}")
    batch = broadcast_shape("matmul", a[:-2], b[:-2])
    return batch + sa[-2:-1] * (len(sa) > 1) + sb[-1:] * (len(sb) > 1)


@define("matmul")
def matmul(backend, a, b, out=None):
    """``a @ b`` with NumPy's rules for 1-d operands and broadcast batch axes."""
    shape = matmul_shape(np.shape(a), np.shape(b))
    return np.matmul(a, b, out=output(backend, out, shape, result_dtype(np.matmul, (a, b))))
