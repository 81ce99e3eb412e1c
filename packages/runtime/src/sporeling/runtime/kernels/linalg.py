"""Linear-algebra kernels."""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from sporeling.core import ShapeError, dtypes

from .table import broadcast_shape, define, output, result_dtype, writes_out

LOW_FLOATS = frozenset((dtypes.float16, dtypes.bfloat16))
"""16-bit floats. NumPy multiplies float16 element by element (hundreds of times slower
than float32 through BLAS) and silently returns float32 for bfloat16, so the contraction
kernels compute them in float32 and round the result once, into the 16-bit output --
what mixed-precision hardware does (16-bit operands, 32-bit accumulation)."""


def widened(x):
    """``x`` as float32 when it is a 16-bit float, else ``x`` itself."""
    dtype = getattr(x, "dtype", None)
    return x.astype(np.float32) if dtype in LOW_FLOATS else x


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


@define("matmul", memory=writes_out())
def matmul(backend, a, b, out=None):
    """``a @ b`` with NumPy's rules for 1-d operands and broadcast batch axes."""
    dt = getattr(a, "dtype", None)
    if dt is not None and dt is getattr(b, "dtype", None) and dt not in LOW_FLOATS:
        if out is not None:  # a planned buffer: shapes were checked when the graph was built
            return np.matmul(a, b, out=out)
        sa, sb = a.shape, b.shape
        if len(sa) == 2 and len(sb) == 2 and sa[1] == sb[0]:  # the common case, cheaply
            return np.matmul(a, b, out=backend.allocate((sa[0], sb[1]), dt))
    shape = matmul_shape(np.shape(a), np.shape(b))
    dtype = result_dtype(np.matmul, (a, b))
    if getattr(a, "dtype", None) in LOW_FLOATS:  # float32 compute, one rounding
        dtype = a.dtype
        result = output(backend, out, shape, dtype)
        result[...] = np.matmul(widened(a), widened(b))
        return result
    return np.matmul(a, b, out=output(backend, out, shape, dtype))


@lru_cache(maxsize=1024)
def _einsum_path(subscripts: str, shapes: tuple) -> list:
    # the contraction order (BLAS-friendly pairwise steps), found once per signature
    dummies = [np.broadcast_to(np.zeros((), np.float32), s) for s in shapes]
    return np.einsum_path(subscripts, *dummies, optimize="greedy")[0]


@define("einsum", memory=writes_out())
def einsum(backend, *operands, out=None, subscripts):
    """``np.einsum`` with explicit ``subscripts`` (``"ij,jk->ik"``) into pool memory."""
    shapes = tuple(np.shape(x) for x in operands)
    sizes = {c: n for sub, s in zip(subscripts.split("->")[0].split(","), shapes)
             for c, n in zip(sub, s)}
    shape = tuple(sizes[c] for c in subscripts.split("->")[1])
    dtype = np.result_type(*operands)
    path = _einsum_path(subscripts, shapes) if len(operands) > 1 else False
    if dtype in LOW_FLOATS:  # float32 compute, one rounding
        result = output(backend, out, shape, dtype)
        result[...] = np.einsum(subscripts, *map(widened, operands), optimize=path)
        return result
    return np.einsum(subscripts, *operands, out=output(backend, out, shape, dtype),
                     optimize=path)


@lru_cache(maxsize=256)
def _triangle_mask(n: int, m: int, k: int, lower: bool) -> np.ndarray:
    mask = np.tri(n, m, k, dtype=bool) if lower else ~np.tri(n, m, k - 1, dtype=bool)
    mask.flags.writeable = False
    return mask


def _triangle(backend, x, out, k, lower):
    x = np.asarray(x)
    result = output(backend, out, x.shape, x.dtype)
    result.fill(0)
    np.copyto(result, x, where=_triangle_mask(x.shape[-2], x.shape[-1], k, lower))
    return result


@define("tril", memory=writes_out())
def tril(backend, x, out=None, *, k=0):
    """Entries with ``col - row <= k`` of the last two axes, zeros elsewhere."""
    return _triangle(backend, x, out, k, True)


@define("triu", memory=writes_out())
def triu(backend, x, out=None, *, k=0):
    """Entries with ``col - row >= k`` of the last two axes, zeros elsewhere."""
    return _triangle(backend, x, out, k, False)
