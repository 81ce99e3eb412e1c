"""Gradient checks of einsum (contractions, diagonals, batch axes) and triangles."""
import numpy as np

from sporeling.compiler import ops

rng = np.random.default_rng(3)
r = rng.standard_normal

CASES = {
    "einsum": [(lambda a, b: ops.einsum("ij,kj->ik", a, b), [r((3, 4)), r((5, 4))]),
               (lambda a, b: ops.einsum("bij,bjk", a, b), [r((2, 3, 4)), r((2, 4, 2))]),
               (lambda a: ops.einsum("ii->i", a), [r((3, 3))]),
               (lambda a: ops.einsum("ijk->j", a), [r((2, 3, 4))]),
               (lambda a, b, c: ops.einsum("...i,ij,j->...", a, b, c),
                [r((2, 3)), r((3, 4)), r((4,))])],
    "tril": [(lambda a: ops.tril(a, 1), [r((2, 3, 4))])],
    "triu": [(lambda a: ops.triu(a, -1), [r((4, 3))])],
}
