"""Indexing: strided slices, NumPy-style ``getitem``, gathers and scatter-adds.

An index is split in two: index arrays (integer or boolean) are operands, never
differentiated; the rest is the static parameter ``key``, a tuple of ints, ``None``,
``Ellipsis``, ``(start, stop, step)`` triples for slices and the marker :data:`OPERAND` for
each index array in turn. Kernels rebuild the NumPy index from the two. Every backward is a
scatter-add of the cotangent (:func:`add_at`), so repeated indices accumulate.

    >>> import numpy as np
    >>> x = np.arange(12.0).reshape(3, 4)
    >>> getitem(x, np.s_[[2, 0], ::-2])
    array([[11.,  9.],
           [ 3.,  1.]])
    >>> add_at(np.zeros(3), np.array([0, 0, 2]), 1.0)
    array([2., 0., 1.])
"""
from __future__ import annotations

import builtins
import operator

import numpy as np

from sporeling.core import DTypeError, ShapeError, dtypes

from ..core import Aval, Primitive, bind, def_backward, def_nondifferentiable
from ._util import (as_operand, broadcast_shapes, check_int, check_sequence, check_shape,
                    is_array, same_dtype, unbroadcast)
from .shape import normalize_axis

__all__ = ["OPERAND", "IndexingError", "strided_slice", "slice", "getitem", "add_at", "set_at",
           "gather", "index_select", "take_along_axis", "scatter_add", "one_hot"]

OPERAND = "operand"
"""The ``key`` entry that stands for the next index-array operand."""

_FULL = (None, None, None)
_AFTER_X = range(1, 128)  # backward rules read the index operands, not x itself


class IndexingError(ShapeError, IndexError):
    """An index out of range, or one that does not fit the indexed shape."""


def _zeros(aval, dtype):
    return np.zeros(tuple(aval.shape), dtype)


def _check_bounds(op, index, n, axis, shape):
    # values are known only for concrete arrays (eager mode, and its error path)
    if isinstance(index, np.ndarray) and index.size and (index.min() < -n or index.max() >= n):
        bad = index[(index < -n) | (index >= n)].ravel()[0]
        raise IndexingError("index out of range", op=op,
                            expected=f"indices in [-{n}, {n}) for axis {axis} of shape {shape}",
                            got=int(bad))


def _int_index(op, index):
    if np.dtype(index.dtype).kind not in "iu":
        raise DTypeError("index arrays must hold integers", op=op, expected="an integer dtype",
                         got=str(np.dtype(index.dtype)))


# ---------------------------------------------------------------- shape of x[key]
def _resolve(op, key, operands):
    items, consumed, ellipses, operands = [], 0, 0, iter(operands)
    for k in key:
        if k is None or k is Ellipsis:
            items.append((k, None))
            ellipses += k is Ellipsis
        elif isinstance(k, str):
            a = next(operands)
            kind = np.dtype(a.dtype).kind
            if kind not in "biu":
                raise DTypeError("index arrays must hold integers or booleans", op=op,
                                 expected="an integer or bool dtype", got=str(np.dtype(a.dtype)))
            items.append(("mask" if kind == "b" else "array", a))
            consumed += len(a.shape) if kind == "b" else 1
        else:
            items.append(("slice" if isinstance(k, tuple) else "int", k))
            consumed += 1
    return items, consumed, ellipses


def index_shape(op: str, shape, key: tuple, operands=()) -> tuple[int, ...]:
    """The shape of ``x[key]`` under NumPy's rules (advanced indices broadcast together and
    stay in place when adjacent, else go first), or an :class:`IndexingError`."""
    shape = tuple(shape)
    ndim = len(shape)
    items, consumed, ellipses = _resolve(op, key, operands)
    where = f"index {_show(key)} of shape {shape}"
    if ellipses > 1 or consumed > ndim:
        raise IndexingError("too many indices" if ellipses < 2 else "more than one Ellipsis",
                            op=op, expected=f"at most {ndim} indexed axes and one Ellipsis",
                            got=where)
    advanced = any(kind in ("array", "mask") for kind, _ in items)
    out, adv, pos, groups, prev, dim = [], [], None, 0, False, 0
    for kind, v in items:
        if kind is None or kind is Ellipsis or kind == "slice":
            if kind is None:
                out.append(1)
            elif kind is Ellipsis:
                out.extend(shape[dim:dim + ndim - consumed])
                dim += ndim - consumed
            else:
                out.append(len(range(*builtins.slice(*v).indices(shape[dim]))))
                dim += 1
            prev = False
            continue
        if kind == "int":
            if not -shape[dim] <= v < shape[dim]:
                raise IndexingError("index out of range", op=op,
                                    expected=f"an int in [-{shape[dim]}, {shape[dim]}) for "
                                             f"axis {dim}", got=where)
            dim += 1
            if not advanced:
                continue
            adv.append(())
        elif kind == "array":
            _check_bounds(op, v, shape[dim], dim, shape)
            adv.append(tuple(v.shape))
            dim += 1
        else:
            m = len(v.shape)
            if tuple(v.shape) != shape[dim:dim + m]:
                raise IndexingError("boolean mask does not fit", op=op,
                                    expected=f"a mask of shape {shape[dim:dim + m]}",
                                    got=f"shape {tuple(v.shape)} in {where}")
            if not isinstance(v, np.ndarray):
                raise ShapeError("a boolean mask gives a data-dependent shape", op=op,
                                 expected="a concrete mask", got=where,
                                 hint="mask with where() inside compiled graphs")
            adv.append((int(np.count_nonzero(v)),))
            dim += m
        if not prev:
            groups += 1
            pos = len(out) if pos is None else pos
        prev = True
    out.extend(shape[dim:])
    if adv:
        b = list(broadcast_shapes(op, *adv))
        out = b + out if groups > 1 else out[:pos] + b + out[pos:]
    return tuple(out)


def _show(key):
    return "[" + ", ".join("..." if k is Ellipsis else "array" if isinstance(k, str) else
                           ":".join("" if v is None else str(v) for v in k)
                           if isinstance(k, tuple) else repr(k) for k in key) + "]"


def encode_index(key) -> tuple[tuple, list]:
    """``(key, operands)`` for a NumPy-style index: ints, slices, None, Ellipsis, lists and
    arrays or tensors of integers or booleans (anything with ``.shape``/``.dtype``)."""
    if type(key) is not tuple:
        key = (key,)
    entries, operands = [], []
    for k in key:
        t = type(k)
        if t is int or k is None or k is Ellipsis:
            entries.append(k)
        elif t is builtins.slice:
            entries.append(tuple(None if v is None else operator.index(v)
                                 for v in (k.start, k.stop, k.step)))
        elif isinstance(k, np.integer):
            entries.append(int(k))
        elif t is bool or t is list or isinstance(k, np.bool_) or is_array(k):
            a = as_operand(k)
            if t is list and a.size == 0:  # [] indexes nothing (NumPy reads it as ints)
                a = np.zeros(a.shape, np.int64)
            entries.append(OPERAND)
            operands.append(a)
        else:
            raise IndexingError("unsupported index", op="getitem",
                                expected="ints, slices, None, Ellipsis, or integer or "
                                         "boolean arrays", got=repr(k))
    return tuple(entries), operands


# ---------------------------------------------------------------- slice, getitem, add_at
slice_p = Primitive("slice", core=True)
getitem_p = Primitive("getitem", core=True)
add_at_p = Primitive("add_at", core=True, amp="promote")


@slice_p.def_abstract_eval
def _slice_aval(x, *, slices):
    if len(slices) != len(x.shape):
        raise IndexingError("one (start, stop, step) per axis", op="slice",
                            expected=f"{len(x.shape)} triples", got=repr(slices))
    return Aval(index_shape("slice", x.shape, slices), x.dtype)


@def_backward(slice_p, uses=())
def _slice_bwd(ct, x, *, out, slices):
    return (bind(add_at_p, _zeros(x, ct.dtype), ct, key=slices),)


def strided_slice(x, begin, end, strides=None):
    """``x[begin[0]:end[0]:strides[0], ...]`` (MindSpore's ``strided_slice``); entries may be
    None, steps negative; axes past the given ones are taken whole. A view.

        >>> strided_slice(np.arange(10), [8], [None], [-3])
        array([8, 5, 2])
    """
    x = as_operand(x)
    shape = tuple(x.shape)
    begin, end = _bounds("begin", begin), _bounds("end", end)
    strides = (None,) * len(begin) if strides is None else _bounds("strides", strides)
    if not len(begin) == len(end) == len(strides) <= len(shape):
        raise IndexingError("begin, end and strides differ in length or exceed the rank",
                            op="slice", expected=f"equal lengths <= {len(shape)}",
                            got=f"{tuple(begin)}, {tuple(end)}, {strides}")
    slices = []
    for n, b, e, s in zip(shape, begin, end, strides):
        if s == 0:
            raise IndexingError("zero step", op="slice", expected="non-zero strides",
                                got=strides)
        start, stop, step = builtins.slice(b, e, s).indices(n)
        slices.append((start, None if step < 0 and stop < 0 else stop, step))
    slices = tuple(slices) + tuple((0, n, 1) for n in shape[len(slices):])
    if all(t == (0, n, 1) for t, n in zip(slices, shape)):
        return x
    return bind(slice_p, x, slices=slices)


def _bounds(name: str, values) -> tuple:
    """Slice bounds: a sequence of ints or Nones, or an ArgumentError."""
    values = check_sequence("strided_slice", name, values)
    for v in values:
        if v is not None:
            check_int(v, name, op="strided_slice")
    return values


def slice(x, begin, size):  # noqa: A001  (the op's name, as in MindSpore)
    """``size[i]`` elements from ``begin[i]`` per axis (-1: to the end), as MindSpore's
    ``ops.slice``.

        >>> slice(np.arange(6).reshape(2, 3), (0, 1), (-1, 2))
        array([[1, 2],
               [4, 5]])
    """
    begin = check_shape("slice", begin, "begin")
    size = check_shape("slice", size, "size")
    return strided_slice(x, begin, [None if s == -1 else b + s for b, s in zip(begin, size)])


@getitem_p.def_abstract_eval
def _getitem_aval(x, *indices, key):
    return Aval(index_shape("getitem", x.shape, key, indices), x.dtype)


@def_backward(getitem_p, uses=_AFTER_X)
def _getitem_bwd(ct, x, *indices, out, key):
    return (bind(add_at_p, _zeros(x, ct.dtype), ct, *indices, key=key),) + \
        (None,) * len(indices)


def getitem(x, key):
    """``x[key]`` with NumPy's semantics, differentiable in ``x`` (a Tensor's
    ``__getitem__``). Basic indices give views; index arrays may be tensors."""
    x = as_operand(x)
    key, operands = encode_index(key)
    if not key:
        return x
    return bind(getitem_p, x, *operands, key=key)


@add_at_p.def_abstract_eval
def _add_at_aval(x, updates, *indices, key):
    dtype = same_dtype("add_at", x, updates)
    target = index_shape("add_at", x.shape, key, indices)
    try:
        fits = np.broadcast_shapes(target, tuple(updates.shape)) == target
    except ValueError:
        fits = False
    if not fits:
        raise ShapeError("updates do not broadcast to the indexed shape", op="add_at",
                         expected=f"a shape broadcasting to {target}",
                         got=tuple(updates.shape))
    return Aval(tuple(x.shape), dtype)


@def_backward(add_at_p, uses=range(2, 128))
def _add_at_bwd(ct, x, updates, *indices, out, key):
    picked = bind(getitem_p, ct, *indices, key=key) if key else ct
    return (ct, unbroadcast(picked, tuple(updates.shape))) + (None,) * len(indices)


def add_at(x, key, updates):
    """A copy of ``x`` with ``updates`` added at ``x[key]``; repeated indices accumulate
    (``np.add.at`` without the mutation; JAX's ``x.at[key].add(updates)``)."""
    x = as_operand(x)
    updates = as_operand(updates, None if is_array(updates) else x.dtype)
    if updates.dtype != x.dtype:
        from .dtype import cast
        updates = cast(updates, x.dtype)
    key, operands = encode_index(key)
    return bind(add_at_p, x, updates, *operands, key=key)


def set_at(x, key, value):
    """A copy of ``x`` with ``value`` written at ``x[key]`` (JAX's ``x.at[key].set(v)``;
    what ``t[key] = v`` does to a traced tensor in Graph mode). Exact -- ``where`` over the
    positions the key selects, which ``add_at`` fills into zeros -- and differentiable.
    The positions must be known while tracing (ints, slices, ``None``, ``...``, constant
    integer or boolean arrays, each position once), or the key a traced boolean mask with a
    value that broadcasts to ``x``."""
    from ._control_loops import concrete
    from .elementwise import where
    from .shape import broadcast_to
    x = as_operand(x)
    entries, operands = encode_index(key)
    value = as_operand(value, x.dtype)
    if np.dtype(value.dtype).kind not in "biufc":
        raise DTypeError("the value written is not a number", op="setitem",
                         expected=f"numbers (cast to {np.dtype(x.dtype).name})",
                         got=str(np.dtype(value.dtype)))
    if any(concrete(a) is None for a in operands):
        mask = operands[0]
        if len(entries) != 1 or np.dtype(mask.dtype) != np.bool_ or \
                tuple(mask.shape) != tuple(x.shape):
            raise IndexingError("assignment at traced positions", op="setitem",
                                expected="positions known while tracing, or one boolean "
                                         "mask of the tensor's shape",
                                got=_show(entries),
                                hint="ops.add_at(x, indices, values - x[indices]) adds, "
                                     "ops.where(mask, value, x) selects")
        return where(mask, value, x)
    index_shape("setitem", tuple(x.shape), entries, operands)  # the key, checked as getitem's
    arrays = iter(np.asarray(concrete(a)) for a in operands)
    plain = tuple(next(arrays) if e is OPERAND else builtins.slice(*e) if type(e) is tuple
                  else e for e in entries)
    count = np.zeros(tuple(x.shape), np.int64)
    np.add.at(count, plain, 1)
    if count.max(initial=0) > 1:
        raise IndexingError("assignment writes a position more than once", op="setitem",
                            expected="each position once (NumPy keeps the last write; a "
                                     "compiled program has no order)",
                            got=_show(entries))
    placed = add_at(broadcast_to(np.zeros((), x.dtype), tuple(x.shape)), key, value)
    return where(count.astype(bool), placed, x)


# ---------------------------------------------------------------- gather and scatter
gather_p = Primitive("gather", core=True)
take_along_axis_p = Primitive("take_along_axis", core=True)
scatter_add_p = Primitive("scatter_add", core=True, amp="promote")


@gather_p.def_abstract_eval
def _gather_aval(x, indices, *, axis):
    shape = tuple(x.shape)
    _int_index("gather", indices)
    normalize_axis("gather", axis, len(shape))
    _check_bounds("gather", indices, shape[axis], axis, shape)
    return Aval(shape[:axis] + tuple(indices.shape) + shape[axis + 1:], x.dtype)


@def_backward(gather_p, uses=(1,))
def _gather_bwd(ct, x, indices, *, out, axis):
    key = (_FULL,) * axis + (OPERAND,)
    return bind(add_at_p, _zeros(x, ct.dtype), ct, indices, key=key), None


def gather(x, indices, axis=0):
    """Entries of ``x`` at integer ``indices`` along ``axis`` (``np.take``); the result's
    ``axis`` is replaced by ``indices``'s shape.

        >>> gather(np.arange(6).reshape(2, 3), np.array([2, 2, 0]), axis=1)
        array([[2, 2, 0],
               [5, 5, 3]])
    """
    x, indices = as_operand(x), as_operand(indices)
    _int_index("gather", indices)
    return bind(gather_p, x, indices, axis=normalize_axis("gather", axis, len(x.shape)))


index_select = gather


def _along_axis_check(op, x, indices, axis, updates=None):
    shape, ishape = tuple(x.shape), tuple(indices.shape)
    _int_index(op, indices)
    normalize_axis(op, axis, len(shape))
    if len(ishape) != len(shape) or ishape[:axis] + ishape[axis + 1:] != \
            shape[:axis] + shape[axis + 1:]:
        raise ShapeError("indices do not fit the input off the axis", op=op,
                         expected=f"a shape like {shape} except on axis {axis}", got=ishape)
    if updates is not None and tuple(updates.shape) != ishape:
        raise ShapeError("updates and indices differ in shape", op=op,
                         expected=ishape, got=tuple(updates.shape))
    _check_bounds(op, indices, shape[axis], axis, shape)


@take_along_axis_p.def_abstract_eval
def _take_along_axis_aval(x, indices, *, axis):
    _along_axis_check("take_along_axis", x, indices, axis)
    return Aval(tuple(indices.shape), x.dtype)


@def_backward(take_along_axis_p, uses=(1,))
def _take_along_axis_bwd(ct, x, indices, *, out, axis):
    return bind(scatter_add_p, _zeros(x, ct.dtype), indices, ct, axis=axis), None


def take_along_axis(x, indices, axis):
    """``np.take_along_axis``: ``indices`` has ``x``'s shape except on ``axis``.

        >>> take_along_axis(np.array([[10, 30, 20]]), np.array([[1, 2]]), axis=1)
        array([[30, 20]])
    """
    x, indices = as_operand(x), as_operand(indices)
    axis = normalize_axis("take_along_axis", axis, len(x.shape))
    _along_axis_check("take_along_axis", x, indices, axis)
    return bind(take_along_axis_p, x, indices, axis=axis)


@scatter_add_p.def_abstract_eval
def _scatter_add_aval(x, indices, updates, *, axis):
    same_dtype("scatter_add", x, updates)
    _along_axis_check("scatter_add", x, indices, axis, updates)
    return Aval(tuple(x.shape), x.dtype)


@def_backward(scatter_add_p, uses=(1,))
def _scatter_add_bwd(ct, x, indices, updates, *, out, axis):
    return ct, None, bind(take_along_axis_p, ct, indices, axis=axis)


def scatter_add(x, indices, updates, axis):
    """A copy of ``x`` where ``updates[i]`` is added at position ``i`` with its ``axis``
    coordinate replaced by ``indices[i]`` (PyTorch's ``scatter_add``; the inverse of
    :func:`take_along_axis`). ``indices`` and ``updates`` share a shape, which is ``x``'s
    except on ``axis``; repeated indices accumulate.

        >>> scatter_add(np.zeros((1, 3)), np.array([[2, 2, 0, 2]]), np.ones((1, 4)), axis=1)
        array([[1., 0., 3.]])
    """
    x, indices = as_operand(x), as_operand(indices)
    updates = as_operand(updates)
    if updates.dtype != x.dtype:
        from .dtype import cast
        updates = cast(updates, x.dtype)
    axis = normalize_axis("scatter_add", axis, len(x.shape))
    _along_axis_check("scatter_add", x, indices, axis, updates)
    return bind(scatter_add_p, x, indices, updates, axis=axis)


# ---------------------------------------------------------------- one_hot
one_hot_p = Primitive("one_hot", amp="never")
def_nondifferentiable(one_hot_p)


@one_hot_p.def_abstract_eval
def _one_hot_aval(indices, *, depth, dtype):
    _int_index("one_hot", indices)
    return Aval(tuple(indices.shape) + (depth,), dtypes.dtype(dtype))


def one_hot(indices, depth: int, dtype=dtypes.float32):
    """A new last axis of length ``depth``: 1 at each index, 0 elsewhere (all 0 for an index
    outside ``[0, depth)``, as MindSpore and TensorFlow do). Not differentiable.

        >>> one_hot(np.array([0, 2]), 3)
        array([[1., 0., 0.],
               [0., 0., 1.]], dtype=float32)
    """
    indices = as_operand(indices)
    _int_index("one_hot", indices)
    if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or depth < 0:
        raise ShapeError("bad depth", op="one_hot", expected="an int >= 0", got=repr(depth))
    return bind(one_hot_p, indices, depth=int(depth), dtype=dtypes.dtype(dtype))


from . import _indexing_rules  # noqa: E402,F401  (their vmap and sharding rules)
