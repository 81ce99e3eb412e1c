"""Linear algebra: matmul, einsum, outer products, triangular parts.

    >>> import numpy as np
    >>> einsum("bij,bjk->bik", np.ones((2, 1, 3)), np.ones((2, 3, 2))).shape
    (2, 1, 2)
    >>> einsum("ii", np.eye(3))     # implicit output: the trace
    array(3.)
"""
from __future__ import annotations

import string
from functools import lru_cache

import numpy as np

from sporeling.core import ArgumentError, ShapeError

from ..core import Aval, Primitive, bind, def_backward
from ..core.sharding import Fresh, OpDims, broadcast_dims, shape_of
from ._batching import logical_shape, reshape as batch_reshape, to_front
from ._util import as_operand, broadcast_shapes, check_int, promote, same_dtype, unbroadcast

__all__ = ["matmul", "einsum", "outer", "tril", "triu"]

matmul_p = Primitive("matmul", core=True, amp="white")  # contractions: 16-bit in, float32 sums


@matmul_p.def_abstract_eval
def _matmul_aval(x, y):
    dtype = same_dtype("matmul", x, y)
    xs, ys = tuple(x.shape), tuple(y.shape)
    if not xs or not ys:
        raise ShapeError("operands must have at least 1 dimension", op="matmul",
                         expected="1-d or more", got=f"{xs} and {ys}")
    a = (1,) + xs if len(xs) == 1 else xs
    b = ys + (1,) if len(ys) == 1 else ys
    if a[-1] != b[-2]:
        raise ShapeError("inner dimensions differ", op="matmul",
                         expected=f"x's last dimension ({a[-1]}) == y's "
                                  f"{'only' if len(ys) == 1 else 'second-to-last'} "
                                  f"dimension", got=f"{xs} and {ys}")
    batch = broadcast_shapes("matmul", a[:-2], b[:-2])
    shape = batch + ((a[-2],) if len(xs) > 1 else ()) + ((b[-1],) if len(ys) > 1 else ())
    return Aval(shape, dtype)


@def_backward(matmul_p, uses=(0, 1), selective=True)
def _matmul_bwd(ct, x, y, *, out, needs):
    from .shape import reshape, swap_last_axes
    xs, ys = tuple(x.shape), tuple(y.shape)
    x2 = reshape(x, (1,) + xs) if len(xs) == 1 else x  # vectors as 1-row / 1-column matrices
    y2 = reshape(y, ys + (1,)) if len(ys) == 1 else y
    batch = broadcast_shapes("matmul", x2.shape[:-2], y2.shape[:-2])
    ct2 = reshape(ct, batch + (x2.shape[-2], y2.shape[-1]))
    gx = gy = None
    if needs[0]:
        gx = reshape(unbroadcast(matmul(ct2, swap_last_axes(y2)), tuple(x2.shape)), xs)
    if needs[1]:
        if len(xs) == len(ys) == 2 and _transposed_view(y):
            # y is a transposed view (Dense's weight.T): x^T ct computed as (ct^T x)^T lands
            # in the weight's own row-major order after the transpose's backward, so the
            # optimiser's updates run on contiguous memory, not strided (2x faster there)
            gy = swap_last_axes(matmul(swap_last_axes(ct2), x2))
        else:
            gy = reshape(unbroadcast(matmul(swap_last_axes(x2), ct2), tuple(y2.shape)), ys)
    return gx, gy


def _transposed_view(y) -> bool:
    flags = getattr(y, "flags", None)  # arrays only: a layout hint, never a semantic change
    return flags is not None and flags.f_contiguous and not flags.c_contiguous


def matmul(x, y):
    """Matrix product with NumPy's rules: 1-d operands are vectors; leading dimensions
    broadcast (batched matmul)."""
    return bind(matmul_p, *promote("matmul", x, y))


# ---------------------------------------------------------------- einsum
einsum_p = Primitive("einsum", amp="white")
_LETTERS = string.ascii_letters


def _einsum_error(message, subscripts, shapes, expected):
    return ShapeError(message, op="einsum", expected=expected,
                      got=f"{subscripts!r} with shapes {', '.join(map(str, shapes))}")


@lru_cache(maxsize=1024)
def einsum_spec(subscripts: str, shapes: tuple) -> tuple[str, tuple[int, ...]]:
    """``subscripts`` made explicit (no ``...``, an ``->`` output) for operands of ``shapes``,
    and the output shape; a ShapeError when they do not fit."""
    text = subscripts.replace(" ", "")
    ins, arrow, out = text.partition("->")
    ins = ins.split(",")
    if len(ins) != len(shapes):
        raise _einsum_error("operand count differs from the subscripts", subscripts, shapes,
                            f"{len(ins)} operands")
    used = set(text) - set(".,->")
    if not all(c in _LETTERS for c in used):
        raise _einsum_error("bad subscript characters", subscripts, shapes,
                            "letters, commas, '->' and '...'")
    spare = [c for c in _LETTERS if c not in used]
    batch = max((len(s) - len(sub.replace("...", "")) for sub, s in zip(ins, shapes)
                 if "..." in sub), default=0)
    fill = "".join(spare[:batch])
    explicit = []
    for sub, shape in zip(ins, shapes):
        if "..." in sub:
            sub = sub.replace("...", fill[batch - (len(shape) - len(sub) + 3):], 1)
        if len(sub) != len(shape) or "." in sub:
            raise _einsum_error("subscripts do not match the operand's rank", subscripts,
                                shapes, f"one letter per axis of {shape}")
        explicit.append(sub)
    sizes = {}
    for sub, shape in zip(explicit, shapes):
        for c, n in zip(sub, shape):
            if sizes.setdefault(c, n) != n:
                raise _einsum_error(f"index {c!r} has different sizes", subscripts, shapes,
                                    "one size per index letter")
    joined = "".join(explicit)
    if not arrow:
        out = fill + "".join(sorted((c for c in set(joined) if joined.count(c) == 1
                                     and c not in fill)))  # ASCII order, as NumPy
    elif "..." in out:
        out = out.replace("...", fill, 1)
    if len(set(out)) != len(out) or any(c not in sizes for c in out):
        raise _einsum_error("bad output subscripts", subscripts, shapes,
                            "distinct letters that appear in the inputs")
    return ",".join(explicit) + "->" + out, tuple(sizes[c] for c in out)


@einsum_p.def_abstract_eval
def _einsum_aval(*xs, subscripts):
    dtype = same_dtype("einsum", *xs)
    return Aval(einsum_spec(subscripts, tuple(tuple(x.shape) for x in xs))[1], dtype)


@def_backward(einsum_p, uses=range(64))
def _einsum_bwd(ct, *xs, out, subscripts):
    from .shape import broadcast_to, reshape
    ins, out_sub = subscripts.split("->")
    ins = ins.split(",")
    grads = []
    for i, (sub, x) in enumerate(zip(ins, xs)):
        spare = iter(c for c in _LETTERS if c not in subscripts)
        subs = [s for j, s in enumerate(ins) if j != i] + [out_sub]
        vals = [y for j, y in enumerate(xs) if j != i] + [ct]
        own = ""
        for c, n in zip(sub, x.shape):
            if c in own:  # a repeated index is a diagonal: route it through an identity
                fresh = next(spare)
                subs.append(c + fresh)
                vals.append(np.eye(n, dtype=ct.dtype))
                c = fresh
            own += c
        available = set("".join(subs))
        target = "".join(c for c in own if c in available)
        g = bind(einsum_p, *vals, subscripts=",".join(subs) + "->" + target)
        if target != own:  # indices summed inside this operand alone: broadcast back
            g = reshape(g, tuple(n if c in available else 1 for c, n in zip(own, x.shape)))
            g = broadcast_to(g, tuple(x.shape))
        grads.append(g)
    return tuple(grads)


def einsum(subscripts: str, *operands):
    """Einstein summation (``np.einsum``): explicit (``"ij,jk->ik"``) or implicit output,
    batch axes through ``...``; index sizes must agree exactly (no broadcasting of 1s).
    Differentiable in every operand."""
    if not isinstance(subscripts, str) or not operands:
        raise ArgumentError("bad arguments", op="einsum",
                            expected="a subscripts string and at least one operand",
                            got=f"subscripts={subscripts!r:.40} and {len(operands)} operands")
    xs = promote("einsum", *operands)
    spec, _ = einsum_spec(subscripts, tuple(tuple(x.shape) for x in xs))
    return bind(einsum_p, *xs, subscripts=spec)


def outer(x, y):
    """The outer product of ``x`` and ``y`` flattened (``np.outer``).

        >>> outer(np.array([1, 2]), np.array([1, 10, 100]))
        array([[  1,  10, 100],
               [  2,  20, 200]])
    """
    from .elementwise import mul
    from .shape import reshape
    return mul(reshape(as_operand(x), (-1, 1)), reshape(as_operand(y), (1, -1)))


# ---------------------------------------------------------------- tril, triu
def _triangle(name: str) -> Primitive:
    prim = Primitive(name)

    @prim.def_abstract_eval
    def rule(x, *, k):
        if len(x.shape) < 2:
            raise ShapeError("needs a matrix", op=name, expected="2 or more dimensions",
                             got=tuple(x.shape))
        return Aval(tuple(x.shape), x.dtype)

    @def_backward(prim, uses=())
    def backward(ct, x, *, out, k):
        return (bind(prim, ct, k=k),)

    @prim.def_batching
    def batching(args, dims, *, k):
        (x,), (d,) = args, dims
        if d >= len(x.shape) - 2:  # the batch axis sits among the matrix axes: move it out
            x, d = to_front(x, d), 0
        return bind(prim, x, k=k), d
    return prim


tril_p, triu_p = _triangle("tril"), _triangle("triu")


def tril(x, k: int = 0):
    """The lower triangle of the last two axes: entries with ``col - row <= k`` (``np.tril``).

        >>> tril(np.ones((2, 3)), k=-1)
        array([[0., 0., 0.],
               [1., 0., 0.]])
    """
    x, k = as_operand(x), check_int(k, "k", op="tril")
    tril_p.abstract_eval(x, k=k)
    return bind(tril_p, x, k=k)


def triu(x, k: int = 0):
    """The upper triangle of the last two axes: entries with ``col - row >= k`` (``np.triu``)."""
    x, k = as_operand(x), check_int(k, "k", op="triu")
    triu_p.abstract_eval(x, k=k)
    return bind(triu_p, x, k=k)


# ---------------------------------------------------------------- matmul, einsum: vmap, sharding

@matmul_p.def_batching
def _matmul_batching(args, dims):
    (x, y), (dx, dy) = args, dims
    xs, ys = logical_shape(x, dx), logical_shape(y, dy)
    out_shape = matmul_p.abstract(Aval(xs, x.dtype), Aval(ys, y.dtype)).shape
    # vectors become 1-row / 1-column matrices, then every operand has its batch dims
    x = _as_matrix(x, dx, xs, row=True)
    y = _as_matrix(y, dy, ys, row=False)
    rank = max(len(xs), len(ys), 2)
    x, y = _pad_batch(x, dx, rank), _pad_batch(y, dy, rank)
    out = bind(matmul_p, x, y)
    return batch_reshape(out, (out.shape[0],) + tuple(out_shape)), 0


def _as_matrix(v, d, shape, row):
    if d is None:
        if len(shape) == 1:
            return batch_reshape(v, (1,) + shape if row else shape + (1,))
        return v
    v = to_front(v, d)
    if len(shape) == 1:
        return batch_reshape(v, (v.shape[0],) + ((1,) + shape if row else shape + (1,)))
    return v


def _pad_batch(v, d, rank):
    if d is None:
        return v  # NumPy aligns an unbatched operand on the right already
    inner = tuple(v.shape[1:])
    return batch_reshape(v, (v.shape[0],) + (1,) * (rank - len(inner)) + inner)


@einsum_p.def_batching
def _einsum_batching(args, dims, *, subscripts):
    letter = next(c for c in _LETTERS if c not in subscripts)  # a fresh index: the batch
    ins, out = subscripts.split("->")
    subs, xs = [], []
    for sub, x, d in zip(ins.split(","), args, dims):
        if d is None:
            subs.append(sub)
            xs.append(x)
        else:
            subs.append(letter + sub)
            xs.append(to_front(x, d))
    return bind(einsum_p, *xs, subscripts=",".join(subs) + "->" + letter + out), 0


@matmul_p.def_sharding_rule
def _matmul_sharding(eq):
    """Rows of x and columns of y split freely; the contracted k splits into partial sums;
    batch dimensions broadcast."""
    xs, ys = shape_of(eq.inputs[0]), shape_of(eq.inputs[1])
    if len(xs) < 2 or len(ys) < 2:
        return None  # a vector operand: replicated
    fixed: set[str] = set()
    batch_ins, batch_out = broadcast_dims([xs[:-2], ys[:-2]], shape_of(eq.outputs[0])[:-2],
                                          fixed, Fresh())
    return OpDims([batch_ins[0] + ("m", "k"), batch_ins[1] + ("k", "n")],
                  [batch_out + ("m", "n")], fixed, {"k": "sum"})
