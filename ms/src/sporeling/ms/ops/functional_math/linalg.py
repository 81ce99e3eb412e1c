"""Linear algebraic functions of ``mindspore.ops`` (r2.3) built from ``sx.ops.matmul`` /
``einsum`` and reshapes: differentiable and Graph-mode ready. Decompositions and solvers
(no ``sx`` primitive) are in :mod:`.decompositions`."""
from __future__ import annotations

import numpy as np

from ._util import SporelingError, ShapeError, one_axis, ops, result, tensor
from .complex_parts import complex_input, complex_part

__all__ = ["matmul", "mm", "bmm", "mv", "dot", "tensor_dot", "batch_dot", "outer", "inner",
           "kron", "addmm", "addbmm", "baddbmm", "adjoint", "trace", "matrix_power",
           "vander", "einsum", "ger"]


def matmul(input, other):
    """The matrix product with NumPy broadcasting of batch dimensions (1-D operands are
    vectors)."""
    return result(ops.matmul(tensor(input), tensor(other)))


def mm(input, mat2):
    """The product of two 2-D matrices."""
    a, b = tensor(input), tensor(mat2)
    if len(a.shape) != 2 or len(b.shape) != 2:
        raise ShapeError("needs two 2-D matrices", op="ops.mm", expected="(n, m) and (m, p)",
                         got=f"{tuple(a.shape)} and {tuple(b.shape)}")
    return result(ops.matmul(a, b))


def bmm(input_x, mat2):
    """Batched matrix product ``(..., n, m) @ (..., m, p)``."""
    return result(ops.matmul(tensor(input_x), tensor(mat2)))


def mv(mat, vec):
    """Matrix-vector product ``(n, m) @ (m,)``."""
    a, v = tensor(mat), tensor(vec)
    if len(a.shape) != 2 or len(v.shape) != 1:
        raise ShapeError("needs a 2-D matrix and a 1-D vector", op="ops.mv",
                         expected="(n, m) and (m,)", got=f"{tuple(a.shape)} and {tuple(v.shape)}")
    return result(ops.matmul(a, v))


def _contract(a, b, axes_a, axes_b):
    """``tensordot``: sum over ``axes_a`` of ``a`` against ``axes_b`` of ``b``."""
    axes_a = [one_axis("ops.tensor_dot", d, len(a.shape)) for d in axes_a]
    axes_b = [one_axis("ops.tensor_dot", d, len(b.shape)) for d in axes_b]
    for da, db in zip(axes_a, axes_b):
        if a.shape[da] != b.shape[db]:
            raise ShapeError("contracted dimensions differ", op="ops.tensor_dot",
                             expected=f"equal sizes on axes {axes_a} and {axes_b}",
                             got=f"shapes {tuple(a.shape)} and {tuple(b.shape)}")
    free_a = [d for d in range(len(a.shape)) if d not in axes_a]
    free_b = [d for d in range(len(b.shape)) if d not in axes_b]
    k = int(np.prod([a.shape[d] for d in axes_a], dtype=np.int64))
    a2 = ops.reshape(ops.transpose(a, tuple(free_a + axes_a)), (-1, k))
    b2 = ops.reshape(ops.transpose(b, tuple(axes_b + free_b)), (k, -1))
    shape = tuple(a.shape[d] for d in free_a) + tuple(b.shape[d] for d in free_b)
    return ops.reshape(ops.matmul(a2, b2), shape)


def tensor_dot(x1, x2, axes):
    """``numpy.tensordot``: ``axes`` an int (the last ``axes`` dims of ``x1`` with the
    first of ``x2``) or a pair of axis lists."""
    a, b = tensor(x1), tensor(x2)
    if isinstance(axes, (int, np.integer)):
        n = int(axes)
        axes_a, axes_b = list(range(len(a.shape) - n, len(a.shape))), list(range(n))
    else:
        axes_a, axes_b = axes
        axes_a = [axes_a] if isinstance(axes_a, int) else list(axes_a)
        axes_b = [axes_b] if isinstance(axes_b, int) else list(axes_b)
    return result(_contract(a, b, axes_a, axes_b))


def dot(input, other):
    """``numpy.dot``: the last axis of ``input`` against the second-to-last of ``other``
    (the last when ``other`` is 1-D)."""
    a, b = tensor(input), tensor(other)
    return result(_contract(a, b, [-1], [-1 if len(b.shape) == 1 else -2]))


def batch_dot(x1, x2, axes=None):
    """Per-sample ``tensor_dot`` over the first (batch) axis: ``axes`` (an int or a pair)
    names the contracted axis of each; default the last of ``x1`` and the second-to-last of
    ``x2`` (the last when it is 2-D). Two 2-D inputs give shape ``(batch, 1)``."""
    a, b = tensor(x1), tensor(x2)
    if axes is None:
        axes = (len(a.shape) - 1, len(b.shape) - 1 if len(b.shape) == 2 else len(b.shape) - 2)
    elif isinstance(axes, (int, np.integer)):
        axes = (int(axes), int(axes))
    da, db = (one_axis("ops.batch_dot", d, len(t.shape)) for d, t in zip(axes, (a, b)))
    if 0 in (da, db):
        raise SporelingError("the batch axis cannot be contracted", op="ops.batch_dot",
                             expected="axes other than 0", got=repr(axes))
    ra = [d for d in range(1, len(a.shape)) if d != da]
    rb = [d for d in range(1, len(b.shape)) if d != db]
    n = a.shape[0]
    a3 = ops.reshape(ops.transpose(a, tuple([0] + ra + [da])), (n, -1, a.shape[da]))
    b3 = ops.reshape(ops.transpose(b, tuple([0, db] + rb)), (n, b.shape[db], -1))
    shape = (n, *[a.shape[d] for d in ra], *[b.shape[d] for d in rb])
    out = ops.reshape(ops.matmul(a3, b3), shape if len(shape) > 1 else (n, 1))
    return result(out)


def outer(input, vec2):
    """The outer product of two vectors."""
    return result(ops.outer(tensor(input), tensor(vec2)))


ger = outer


def inner(input, other):
    """The sum of products over the last axes (a scalar operand multiplies)."""
    a, b = tensor(input), tensor(other)
    if not getattr(a, "shape", ()) or not getattr(b, "shape", ()):
        return result(ops.mul(a, b))
    return result(_contract(a, b, [-1], [-1]))


def kron(input, other):
    """The Kronecker product: block ``(i, j)`` is ``input[i, j] * other``."""
    a, b = tensor(input), tensor(other)
    nd = max(len(a.shape), len(b.shape))
    a = ops.reshape(a, (1,) * (nd - len(a.shape)) + tuple(a.shape))
    b = ops.reshape(b, (1,) * (nd - len(b.shape)) + tuple(b.shape))
    a_sp = tuple(s for n in a.shape for s in (n, 1))
    b_sp = tuple(s for n in b.shape for s in (1, n))
    prod = ops.mul(ops.reshape(a, a_sp), ops.reshape(b, b_sp))
    return result(ops.reshape(prod, tuple(p * q for p, q in zip(a.shape, b.shape))))


def _scaled(x, s):
    return x if s == 1 else ops.mul(x, s)


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    """``beta * input + alpha * (mat1 @ mat2)``."""
    return result(ops.add(_scaled(tensor(input), beta),
                          _scaled(ops.matmul(tensor(mat1), tensor(mat2)), alpha)))


def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """``beta * input + alpha * sum_b(batch1[b] @ batch2[b])``."""
    products = ops.sum(ops.matmul(tensor(batch1), tensor(batch2)), axis=0)
    return result(ops.add(_scaled(tensor(input), beta), _scaled(products, alpha)))


def baddbmm(input, batch1, batch2, beta=1, alpha=1):
    """``beta * input + alpha * (batch1 @ batch2)``, batch by batch."""
    return result(ops.add(_scaled(tensor(input), beta),
                          _scaled(ops.matmul(tensor(batch1), tensor(batch2)), alpha)))


def adjoint(x):
    """The conjugate transpose of the last two axes (a transpose for real inputs)."""
    x = tensor(x)
    if complex_input(x):
        return complex_part("ops.adjoint", lambda v: np.conj(np.swapaxes(v, -1, -2)), x)
    return result(ops.swap_last_axes(x))


def trace(input):
    """The sum of the main diagonal of a 2-D matrix."""
    x = tensor(input)
    if len(x.shape) != 2:
        raise ShapeError("needs a 2-D matrix", op="ops.trace", expected="(n, m)",
                         got=tuple(x.shape))
    eye = np.eye(*x.shape, dtype=bool)
    return result(ops.sum(ops.where(eye, x, np.asarray(0, x.dtype))))


def matrix_power(input, n):
    """``input`` (``(..., m, m)``) multiplied by itself ``n`` times (identity for 0;
    a negative ``n`` powers the inverse)."""
    x = tensor(input)
    if len(x.shape) < 2 or x.shape[-1] != x.shape[-2]:
        raise ShapeError("needs square matrices", op="ops.matrix_power",
                         expected="(..., m, m)", got=tuple(x.shape))
    n = int(n)
    if n < 0:
        from .solvers import inverse
        x, n = inverse(x), -n
    out = None
    base = x
    while n:  # binary exponentiation
        if n & 1:
            out = base if out is None else ops.matmul(out, base)
        n >>= 1
        if n:
            base = ops.matmul(base, base)
    if out is None:
        eye = np.broadcast_to(np.eye(x.shape[-1], dtype=x.dtype), tuple(x.shape))
        out = ops.add(ops.mul(x, 0), eye)
    return result(out)


def vander(x, N=None):
    """The Vandermonde matrix of the 1-D ``x``: column ``j`` is ``x ** (N - 1 - j)``
    (decreasing powers, as NumPy)."""
    x = tensor(x)
    if len(x.shape) != 1:
        raise ShapeError("needs a 1-D tensor", op="ops.vander", expected="(n,)",
                         got=tuple(x.shape))
    n = x.shape[0] if N is None else int(N)
    powers = np.arange(n - 1, -1, -1).astype(x.dtype)
    return result(ops.pow(ops.expand_dims(x, -1), powers))


def einsum(equation, *operand):
    """Einstein summation (``numpy.einsum`` subscripts, no ellipsis broadcasting beyond what
    ``sx.ops.einsum`` takes)."""
    if len(operand) == 1 and isinstance(operand[0], (list, tuple)):
        operand = tuple(operand[0])
    return result(ops.einsum(equation, *(tensor(t) for t in operand)))
