"""Shape primitives: no arithmetic, only moving values around.

``expand_dims``, ``squeeze``, ``stack`` and ``permute`` are built from other primitives
(reshape, concat, transpose), so transformations have fewer rules to know.

    >>> import numpy as np
    >>> a, b = split(np.arange(6.0).reshape(2, 3), [1], axis=1)
    >>> concat([b, a], axis=1)
    array([[1., 2., 0.],
           [4., 5., 3.]])
"""
from __future__ import annotations

import builtins
import math

import numpy as np

from sporeling.core import ArgumentError, ShapeError

from ..core import Aval, Primitive, bind, def_backward
from ._util import (as_operand, broadcast_shapes, check_axes, check_shape, promote,
                    same_dtype)

__all__ = ["reshape", "broadcast_to", "transpose", "permute", "swap_last_axes", "expand_dims",
           "squeeze", "concat", "stack", "split"]


def normalize_axis(op: str, axis, ndim: int) -> int:
    """One axis in ``[-ndim, ndim)`` as a non-negative int, or a ShapeError naming ``op``."""
    if isinstance(axis, (int, np.integer)) and not isinstance(axis, bool) \
            and -ndim <= axis < ndim:
        return int(axis) % ndim
    raise ShapeError("axis out of range", op=op,
                     expected=f"an int in [-{ndim}, {ndim}) for a {ndim}-d input",
                     got=repr(axis))


def _unary_aval(x, **params):
    return Aval(tuple(x.shape), x.dtype)


# ---------------------------------------------------------------- reshape, broadcast, transpose
reshape_p = Primitive("reshape", core=True)
broadcast_to_p = Primitive("broadcast_to", core=True, fusible=True)  # a view, fused as a read
transpose_p = Primitive("transpose", core=True)


def _resolve_shape(op: str, shape, size: int, target) -> tuple[int, ...]:
    target = tuple(int(n) for n in target)
    unknown = [i for i, n in enumerate(target) if n == -1]
    # Python ints: a size past int64 is "cannot reshape", not NumPy's OverflowError or a wrap
    known = math.prod(n for n in target if n != -1)
    if len(unknown) > 1 or any(n < -1 for n in target) or \
            (unknown and (known == 0 or size % known)) or (not unknown and known != size):
        raise ShapeError("cannot reshape", op=op,
                         expected=f"a shape with {size} elements (at most one -1)",
                         got=f"{tuple(shape)} -> {target}")
    if unknown:
        target = target[:unknown[0]] + (size // known,) + target[unknown[0] + 1:]
    return target


@reshape_p.def_abstract_eval
def _reshape_aval(x, *, shape):
    size = int(np.prod(x.shape, dtype=np.int64))
    return Aval(_resolve_shape("reshape", x.shape, size, shape), x.dtype)


@def_backward(reshape_p, uses=())
def _reshape_bwd(ct, x, *, out, shape):
    return (reshape(ct, tuple(x.shape)),)


def reshape(x, shape):
    """``x`` with a new shape of the same size; one dimension may be -1."""
    x = as_operand(x)
    shape = check_shape("reshape", shape)
    shape = _resolve_shape("reshape", x.shape, int(np.prod(x.shape, dtype=np.int64)), shape)
    if shape == tuple(x.shape):
        return x
    return bind(reshape_p, x, shape=shape)


@broadcast_to_p.def_abstract_eval
def _broadcast_to_aval(x, *, shape):
    if broadcast_shapes("broadcast_to", x.shape, shape) != tuple(shape):
        raise ShapeError("cannot broadcast", op="broadcast_to",
                         expected=f"a shape that {tuple(x.shape)} broadcasts to",
                         got=tuple(shape))
    return Aval(tuple(shape), x.dtype)


@def_backward(broadcast_to_p, uses=())
def _broadcast_to_bwd(ct, x, *, out, shape):
    from ._util import unbroadcast
    return (unbroadcast(ct, tuple(x.shape)),)


def broadcast_to(x, shape):
    """``x`` broadcast to ``shape`` (NumPy rules)."""
    x = as_operand(x)
    shape = check_shape("broadcast_to", shape)
    if shape == tuple(x.shape):
        return x
    return bind(broadcast_to_p, x, shape=shape)


@transpose_p.def_abstract_eval
def _transpose_aval(x, *, axes):
    if sorted(axes) != list(range(len(x.shape))):
        raise ShapeError("bad permutation", op="transpose",
                         expected=f"a permutation of 0..{len(x.shape) - 1}", got=tuple(axes))
    return Aval(tuple(x.shape[a] for a in axes), x.dtype)


@def_backward(transpose_p, uses=())
def _transpose_bwd(ct, x, *, out, axes):
    return (transpose(ct, tuple(np.argsort(axes).tolist())),)


def transpose(x, axes=None):
    """Permute axes (reverse them when ``axes`` is None), like ``np.transpose``."""
    x = as_operand(x)
    ndim = len(x.shape)
    axes = tuple(range(ndim))[::-1] if axes is None else tuple(
        a % max(ndim, 1) if -ndim <= a < ndim else a
        for a in check_shape("transpose", axes, "axes"))
    _transpose_aval(x, axes=axes)
    if axes == tuple(range(ndim)):
        return x
    return bind(transpose_p, x, axes=axes)


def permute(x, *axes):
    """``transpose`` with the axes given as arguments or one tuple (PyTorch's name).

        >>> permute(np.zeros((2, 3, 4)), 2, 0, 1).shape
        (4, 2, 3)
    """
    if len(axes) == 1 and not isinstance(axes[0], (int, np.integer)):
        axes = tuple(axes[0])
    return transpose(x, axes)


def swap_last_axes(x):
    """The last two axes exchanged (matrix transpose, batched)."""
    x = as_operand(x)
    n = len(x.shape)
    return transpose(x, tuple(range(n - 2)) + (n - 1, n - 2))


def expand_dims(x, axis):
    """``x`` with new axes of size 1 at ``axis`` (an int or a tuple; positions in the result).

        >>> expand_dims(np.zeros((2, 3)), (0, -1)).shape
        (1, 2, 3, 1)
    """
    x = as_operand(x)
    raw = check_shape("expand_dims", axis, "axis")
    axes = check_axes("expand_dims", raw, len(x.shape) + len(raw))
    dims = iter(x.shape)
    return reshape(x, tuple(1 if i in axes else next(dims)
                            for i in range(len(x.shape) + len(axes))))


def squeeze(x, axis=None):
    """``x`` without axes of size 1: all of them, or those named (each must be 1)."""
    x = as_operand(x)
    shape = tuple(x.shape)
    if axis is None:
        return reshape(x, tuple(n for n in shape if n != 1))
    axes = check_axes("squeeze", axis, len(shape))
    if any(shape[a] != 1 for a in axes):
        raise ShapeError("cannot squeeze an axis whose size is not 1", op="squeeze",
                         expected="axes of size 1", got=f"axis {axis!r} of shape {shape}")
    return reshape(x, tuple(n for i, n in enumerate(shape) if i not in axes))


# ---------------------------------------------------------------- concat, stack, split
concat_p = Primitive("concat", core=True, amp="promote")
split_p = Primitive("split", core=True, multiple_results=True)


@concat_p.def_abstract_eval
def _concat_aval(*xs, axis):
    dtype = same_dtype("concat", *xs)
    first = tuple(xs[0].shape)
    normalize_axis("concat", axis, len(first))
    rest = first[:axis] + first[axis + 1:]
    for x in xs[1:]:
        s = tuple(x.shape)
        if len(s) != len(first) or s[:axis] + s[axis + 1:] != rest:
            raise ShapeError("shapes differ off the concatenation axis", op="concat",
                             expected=f"every shape equal to {first} except on axis {axis}",
                             got=", ".join(str(tuple(y.shape)) for y in xs))
    size = builtins.sum(x.shape[axis] for x in xs)
    return Aval(first[:axis] + (size,) + first[axis + 1:], dtype)


@def_backward(concat_p, uses=())
def _concat_bwd(ct, *xs, out, axis):
    bounds = np.cumsum([x.shape[axis] for x in xs[:-1]]).tolist()
    return split(ct, bounds, axis)


def concat(tensors, axis=0):
    """Join tensors along an existing axis (``np.concatenate``); dtypes are promoted."""
    tensors = _tensors("concat", tensors)
    if not tensors:
        raise ShapeError("nothing to concatenate", op="concat",
                         expected="at least one tensor", got="an empty sequence")
    xs = promote("concat", *tensors)
    if not xs[0].shape:
        raise ShapeError("cannot concatenate 0-d tensors", op="concat",
                         expected="tensors of 1 or more dimensions", got="shape ()",
                         hint="use stack")
    axis = normalize_axis("concat", axis, len(xs[0].shape))
    if len(xs) == 1:
        return xs[0]
    return bind(concat_p, *xs, axis=axis)


def _tensors(op: str, tensors) -> list:
    """The ``tensors`` argument of concat and stack as a list, or an ArgumentError."""
    if not isinstance(tensors, (str, bytes)):
        try:
            return list(tensors)
        except TypeError:  # not iterable
            pass
    raise ArgumentError("bad tensors", op=op, expected="a list or tuple of tensors",
                        got=f"{type(tensors).__name__} {tensors!r}"[:80])


def stack(tensors, axis=0):
    """Join tensors of one shape along a new ``axis``.

        >>> stack([np.zeros(3), np.ones(3)], axis=1).shape
        (3, 2)
    """
    tensors = _tensors("stack", tensors)
    if not tensors:
        raise ShapeError("nothing to stack", op="stack", expected="at least one tensor",
                         got="an empty sequence")
    xs = [as_operand(t) for t in tensors]
    shapes = {tuple(x.shape) for x in xs}
    if len(shapes) > 1:
        raise ShapeError("shapes differ", op="stack", expected="tensors of one shape",
                         got=", ".join(str(tuple(x.shape)) for x in xs))
    axis = normalize_axis("stack", axis, len(xs[0].shape) + 1)
    return concat([expand_dims(x, axis) for x in xs], axis)


def _split_bounds(n, indices):
    bounds = (0,) + tuple(indices) + (n,)
    return all(0 <= a <= b for a, b in zip(bounds, bounds[1:])), bounds


@split_p.def_abstract_eval
def _split_aval(x, *, indices, axis):
    shape = tuple(x.shape)
    normalize_axis("split", axis, len(shape))
    ok, bounds = _split_bounds(shape[axis], indices)
    if not ok:
        raise ShapeError("bad split points", op="split",
                         expected=f"non-decreasing indices in [0, {shape[axis]}]",
                         got=f"{tuple(indices)} for axis {axis} of shape {shape}")
    return tuple(Aval(shape[:axis] + (b - a,) + shape[axis + 1:], x.dtype)
                 for a, b in zip(bounds, bounds[1:]))


@def_backward(split_p, uses=())
def _split_bwd(ct, x, *, out, indices, axis):
    return (concat(list(ct), axis),)


def split(x, sections_or_indices, axis=0):
    """Split ``x`` along ``axis`` like ``np.split``: an int is a number of equal sections
    (which must divide the axis); a sequence gives the split points. Returns a tuple."""
    x = as_operand(x)
    shape = tuple(x.shape)
    axis = normalize_axis("split", axis, len(shape))
    n = shape[axis]
    if isinstance(sections_or_indices, (int, np.integer)):
        k = int(sections_or_indices)
        if k <= 0 or n % k:
            raise ShapeError("sections do not divide the axis", op="split",
                             expected=f"a positive divisor of {n} (axis {axis} of {shape})",
                             got=k)
        indices = tuple(range(n // k, n, n // k))
    else:
        indices = check_shape("split", sections_or_indices, "sections_or_indices")
    _split_aval(x, indices=indices, axis=axis)
    return bind(split_p, x, indices=indices, axis=axis)


from . import _shape_rules  # noqa: E402,F401  (their vmap and sharding rules)
