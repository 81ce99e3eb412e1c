"""``vmap``: a function of one example mapped over a batch, as an interpreter level.

Inside ``vmap`` a batched value is a :class:`BatchTracer`: the batched array and the axis
its batch lies on. It shows the shape of one example, so op functions normalise their
parameters per example; when they bind a primitive, :class:`BatchInterpreter` hands the
batched operands to the primitive's batching rule
(:mod:`sporeling.compiler.core.batching`). Levels nest, so ``vmap`` of ``grad`` (per-example
gradients), ``grad`` of ``vmap`` and ``vmap`` of ``vmap`` all work.

    >>> import numpy as np
    >>> from sporeling.compiler import ops
    >>> vmap(lambda x, w: ops.matmul(w, x), in_axes=(1, None))(np.eye(2), np.ones((3, 2)))
    array([[1., 1., 1.],
           [1., 1., 1.]])
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from sporeling.core import ShapeError, SporelingError

from ..core import Interpreter, next_level
from ..core.batching import batching_rule
from ..ir.pytree import flatten, unflatten
from ..ops._batching import at_front, move_axis

__all__ = ["vmap", "BatchTracer", "BatchInterpreter"]


class BatchTracer:
    """A batched value at one vmap level: ``value`` holds the batch on axis ``batch_dim``;
    ``shape`` is one example's."""
    __slots__ = ("value", "batch_dim", "_interpreter")

    def __init__(self, value, batch_dim: int, interpreter: "BatchInterpreter"):
        self.value, self.batch_dim, self._interpreter = value, batch_dim, interpreter

    @property
    def shape(self) -> tuple:
        s, d = tuple(self.value.shape), self.batch_dim
        return s[:d] + s[d + 1:]

    dtype = property(lambda self: self.value.dtype)
    ndim = property(lambda self: len(self.value.shape) - 1)
    size = property(lambda self: int(np.prod(self.shape, dtype=np.int64)))

    def __array__(self, *args, **kwargs):
        raise SporelingError("a batched value inside vmap has no single array value",
                             op="vmap", hint="use ops instead of NumPy on mapped values")

    def __repr__(self) -> str:
        return (f"BatchTracer({self.value!r}, batch_dim={self.batch_dim}, "
                f"level={self._interpreter.level})")


class BatchInterpreter(Interpreter):
    """Applies each primitive to whole batches through its batching rule."""

    def __init__(self, size: int):
        self.level = next_level()
        self.size = size

    def apply(self, prim, args, params):
        values, dims = [], []
        for a in args:
            if getattr(a, "_interpreter", None) is self:
                values.append(a.value)
                dims.append(a.batch_dim)
            else:
                values.append(a)
                dims.append(None)
        out, out_dim = batching_rule(prim)(values, dims, **params)
        if prim.multiple_results:
            return tuple(self.wrap(o, d) for o, d in zip(out, out_dim))
        return self.wrap(out, out_dim)

    def wrap(self, value, dim):
        return value if dim is None else BatchTracer(value, dim, self)


def _axes_per_leaf(axes, tree, what: str) -> list:
    """``axes`` (an int, None, or a prefix of ``tree``'s structure) as one entry per leaf."""
    def walk(ax, node, out):
        if ax is None or isinstance(ax, (int, np.integer)):
            out.extend([ax] * len(flatten(node)[0]))
        elif isinstance(ax, dict) and isinstance(node, dict) and set(ax) == set(node):
            for k in sorted(node):
                walk(ax[k], node[k], out)
        elif isinstance(ax, (tuple, list)) and isinstance(node, (tuple, list)) \
                and len(ax) == len(node):
            for a, n in zip(ax, node):
                walk(a, n, out)
        else:
            raise SporelingError(f"{what} does not match the structure of the values",
                                 op="vmap", expected="an int, None, or a matching "
                                 "tuple/list/dict", got=repr(ax))
        return out
    return walk(axes, tree, [])


def _mapped_size(leaves, axes) -> int:
    sizes = {}
    for i, (leaf, axis) in enumerate(zip(leaves, axes)):
        if axis is None:
            continue
        shape = tuple(getattr(leaf, "shape", np.shape(leaf)))
        if not -len(shape) <= axis < len(shape):
            raise ShapeError("in_axes out of range", op="vmap",
                             expected=f"an axis in [-{len(shape)}, {len(shape)}) or None",
                             got=f"in_axes {axis} for argument leaf {i} of shape {shape}")
        sizes.setdefault(shape[axis], []).append(i)
    if not sizes:
        raise SporelingError("vmap needs at least one mapped argument", op="vmap",
                             expected="an in_axes entry that is not None",
                             got="every argument unmapped")
    if len(sizes) > 1:
        raise ShapeError("mapped axes have different sizes", op="vmap",
                         expected="one size for every mapped argument",
                         got=", ".join(f"size {n} (argument leaves {idx})"
                                       for n, idx in sizes.items()))
    return next(iter(sizes))


def vmap(fn: Callable, in_axes=0, out_axes=0) -> Callable:
    """``fn`` mapped over axis ``in_axes`` of its arguments, the results stacked on
    ``out_axes`` (MindSpore / JAX semantics).

    ``in_axes``: an int (every argument), ``None`` (not mapped: shared by the batch), or a
    tuple with one entry per argument (each itself an int, None or a matching container).
    Mapped axes must all have one size. ``out_axes`` likewise for the results; an output
    with ``out_axes`` None must not vary over the batch.

        >>> import numpy as np
        >>> from sporeling.compiler import ops
        >>> vmap(ops.sum, in_axes=1)(np.arange(6.0).reshape(2, 3))
        array([3., 5., 7.])
    """
    def mapped(*args):
        leaves, tree = flatten(list(args))
        if isinstance(in_axes, (tuple, list)) and len(in_axes) != len(args):
            raise SporelingError("in_axes needs one entry per argument", op="vmap",
                                 expected=f"{len(args)} entries", got=repr(in_axes))
        axes = _axes_per_leaf(list(in_axes) if isinstance(in_axes, (tuple, list)) else
                              in_axes, list(args), "in_axes")
        size = _mapped_size(leaves, axes)
        interp = BatchInterpreter(size)
        wrapped = [leaf if axis is None else
                   BatchTracer(_as_array(leaf), axis % len(leaf.shape), interp)
                   for leaf, axis in zip(leaves, axes)]
        out = fn(*unflatten(tree, wrapped))
        out_leaves, out_tree = flatten(out)
        o_axes = _axes_per_leaf(out_axes, out, "out_axes")
        return unflatten(out_tree, [_unbatch(o, a, interp) for o, a in zip(out_leaves, o_axes)])

    mapped.__name__ = f"vmap({getattr(fn, '__name__', 'fn')})"
    mapped.__doc__ = fn.__doc__
    return mapped


def _as_array(x):
    return x if hasattr(x, "shape") and hasattr(x, "dtype") else np.asarray(x)


def _unbatch(value, axis, interp: BatchInterpreter):
    """An output of the mapped function as a stacked batch (batch on ``axis``)."""
    batched = getattr(value, "_interpreter", None) is interp
    if axis is None:
        if batched:
            raise SporelingError("an output with out_axes None varies over the batch",
                                 op="vmap", expected="an output that is the same for every "
                                 "example", got=f"a batched output of shape {value.shape}")
        return value
    if batched:
        x, d = value.value, value.batch_dim
    else:
        from ..ops._util import as_operand
        x, d = at_front(as_operand(value), None, interp.size), 0
    ndim = len(x.shape)
    if not -ndim <= axis < ndim:
        raise ShapeError("out_axes out of range", op="vmap",
                         expected=f"an axis in [-{ndim}, {ndim})", got=axis)
    return move_axis(x, d, axis % ndim)
