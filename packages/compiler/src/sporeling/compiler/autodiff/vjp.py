"""Reverse-mode autodiff of functions written with the ops, on any values: ``vjp``, ``grad``.

Each call opens a new interpreter level whose values (``TapeValue``) record onto a tape;
inner levels unwrap to outer ones, so differentiating a gradient (grad of grad) works.

    >>> import numpy as np
    >>> from sporeling.compiler import ops
    >>> f = lambda x: ops.sum(ops.mul(x, x))
    >>> grad(f)(np.array([1.0, 2.0]))
    array([2., 4.])
    >>> grad(grad(lambda x: ops.sum(ops.mul(ops.mul(x, x), x))))(np.array(3.0))
    array(18.)
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from sporeling.core import ShapeError, dtypes

from ..core import Interpreter, bind, next_level
from .tape import Node, backprop, leaf, record

__all__ = ["vjp", "grad", "value_and_grad", "TapeValue"]


class TapeValue:
    """A value being differentiated at one level: the inner value and where it came from."""
    __slots__ = ("value", "node", "index", "_interpreter")

    def __init__(self, value, node: Node, index: int, interpreter: "TapeInterpreter"):
        self.value, self.node, self.index, self._interpreter = value, node, index, interpreter

    shape = property(lambda self: self.value.shape)
    dtype = property(lambda self: self.value.dtype)
    ndim = property(lambda self: len(self.value.shape))

    def __repr__(self) -> str:
        return f"TapeValue({self.value!r}, level={self._interpreter.level})"


class TapeInterpreter(Interpreter):
    """Computes with the inner values and records a node when an input is being traced."""

    def __init__(self):
        self.level = next_level()

    def apply(self, prim, args, params):
        inner, parents, traced = [], [], False
        for a in args:
            if getattr(a, "_interpreter", None) is self:
                inner.append(a.value)
                parents.append((a.node, a.index))
                traced = True
            else:
                inner.append(a)
                parents.append(None)
        out = bind(prim, *inner, **params)
        if not traced or not prim.differentiable:
            return out
        node = record(prim, params, tuple(inner), tuple(parents), out)
        if prim.multiple_results:
            return tuple(TapeValue(o, node, i, self) for i, o in enumerate(out))
        return TapeValue(out, node, 0, self)


def _flat(out) -> tuple[list, bool]:
    if isinstance(out, (tuple, list)):
        return list(out), True
    return [out], False


def vjp(f: Callable, *primals):
    """``(f(*primals), vjp_fn)``; ``vjp_fn(ct)`` gives one cotangent per primal.

    ``f`` returns an array or a tuple of arrays; ``ct`` has the same structure.
    ``vjp_fn`` may be called several times.
    """
    interp = TapeInterpreter()
    leaves = [leaf(p) for p in primals]
    wrapped = [TapeValue(p, n, 0, interp) for p, n in zip(primals, leaves)]
    outs, is_tuple = _flat(f(*wrapped))
    values = [o.value if getattr(o, "_interpreter", None) is interp else o for o in outs]

    def vjp_fn(ct):
        cts, _ = _flat(ct) if is_tuple else ([ct], False)
        if len(cts) != len(outs):
            raise ShapeError("cotangent structure differs from the output", op="vjp",
                             expected=f"{len(outs)} cotangents", got=len(cts))
        roots = [(o.node, o.index, c) for o, c in zip(outs, cts)
                 if getattr(o, "_interpreter", None) is interp]
        grads = backprop(roots, release=False)
        return tuple(grads.get(id(n), np.zeros(p.shape, p.dtype))
                     for n, p in zip(leaves, primals))

    return (tuple(values) if is_tuple else values[0]), vjp_fn


def value_and_grad(f: Callable, argnums: int | tuple[int, ...] = 0) -> Callable:
    """``f``'s value and its gradient with respect to ``argnums``; ``f`` returns a scalar."""
    def wrapper(*args):
        nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
        def partial(*diff):
            full = list(args)
            for i, d in zip(nums, diff):
                full[i] = d
            return f(*full)
        out, fn = vjp(partial, *(args[i] for i in nums))
        if tuple(np.shape(out)) != ():
            raise ShapeError("grad needs a scalar output", op="grad", expected="shape ()",
                             got=tuple(np.shape(out)), hint="use vjp with a cotangent")
        grads = fn(np.ones((), dtypes.dtype(out.dtype)))
        return out, (grads[0] if isinstance(argnums, int) else grads)
    return wrapper


def grad(f: Callable, argnums: int | tuple[int, ...] = 0) -> Callable:
    """The gradient of scalar-valued ``f`` with respect to ``argnums``."""
    vg = value_and_grad(f, argnums)
    return lambda *args: vg(*args)[1]
