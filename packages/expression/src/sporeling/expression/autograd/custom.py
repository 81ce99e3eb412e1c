"""Custom backward: a function (or a Cell's ``construct``) with its own ``bprop``.

``bprop(*inputs, out, dout)`` receives the inputs, the forward's output and the output's
cotangent, and returns one gradient per input (None for none), as MindSpore's ``Cell.bprop``
does. The forward runs unrecorded: Parameters it uses get no gradient through it.

    >>> import sporeling.expression as sx
    >>> def clipped_bprop(x, out, dout):        # straight-through, gradient clipped to 1
    ...     return (dout.clip(-1.0, 1.0),)
    >>> @sx.custom_bprop(clipped_bprop)
    ... def sign(x):
    ...     return (x > 0).float() * 2.0 - 1.0
    >>> sx.grad(lambda x: (sign(x) * 3.0).sum())(sx.Tensor([0.5, -2.0]))
    Tensor(shape=[2], dtype=Float32, value= [1., 1.])
"""
from __future__ import annotations

import functools
from typing import Callable

from sporeling.core import ShapeError, SporelingError
from sporeling.compiler.autodiff.tape import Node
from sporeling.compiler.core import Aval, BackwardRule

from ..tensor.tensor import Tensor, wrap
from .session import live_node
from .state import STATE, no_grad

__all__ = ["call_with_bprop", "custom_bprop"]


class _Custom:
    """Stands for a primitive in the record (backprop reads these three attributes)."""
    __slots__ = ("name", "multiple_results", "differentiable")

    def __init__(self, name: str, multiple_results: bool):
        self.name, self.multiple_results, self.differentiable = name, multiple_results, True


def call_with_bprop(forward: Callable, bprop: Callable, *inputs):
    """``forward(*inputs)``, differentiated with ``bprop(*inputs, out, dout)``.

    ``Cell.__call__`` uses it for cells that define ``bprop``. Outside ``grad`` (or when no
    input is being differentiated) this is just ``forward(*inputs)``.
    """
    parents = tuple(live_node(x) for x in inputs) if STATE.level else ()
    if not any(parents):
        return forward(*inputs)
    with no_grad():
        out = forward(*inputs)
    multi = isinstance(out, tuple)
    outs = out if multi else (out,)
    for i, o in enumerate(outs):
        if not isinstance(o, Tensor):
            raise SporelingError("a function with a custom bprop must return Tensors",
                                 op=_name(forward), expected="a Tensor or a tuple of them",
                                 got=f"{type(o).__name__} at output {i}")
    fresh = tuple(wrap(o._data) for o in outs)
    level = STATE.level
    # one grad recording: nothing records the bprop, so save node-free tensors (no cycles)
    keep = (lambda v: v) if level > 1 else \
        (lambda v: wrap(v._data) if isinstance(v, Tensor) else v)
    saved_in = tuple(keep(x) for x in inputs)
    saved_out = fresh if level > 1 else tuple(keep(o) for o in fresh)
    name = _name(forward)
    rule = BackwardRule(functools.partial(_run_bprop, bprop, name, multi), None)
    node = Node(_Custom(name, multi), {}, parents, saved_in,
                saved_out if multi else saved_out[0],
                tuple(Aval(o.shape, o.dtype) for o in fresh), rule)
    for i, o in enumerate(fresh):
        o._node, o._index, o._tape = node, i, STATE.tape
    return fresh if multi else fresh[0]


def _run_bprop(bprop, name, multi, ct, *inputs, out):
    dout = tuple(_tensor(c) for c in ct) if multi else _tensor(ct)
    grads = bprop(*inputs, out, dout)
    if isinstance(grads, Tensor) and len(inputs) == 1:
        grads = (grads,)
    if not isinstance(grads, (tuple, list)) or len(grads) != len(inputs):
        raise SporelingError("bprop must return one gradient per input", op=name,
                             expected=f"a tuple of {len(inputs)}",
                             got=f"{type(grads).__name__}"
                                 + (f" of {len(grads)}" if isinstance(grads, (tuple, list))
                                    else ""))
    result = []
    for i, (g, x) in enumerate(zip(grads, inputs)):
        if g is not None and isinstance(x, Tensor):
            g = _tensor(g)
            if tuple(g.shape) != tuple(x.shape):
                raise ShapeError("bprop returned a gradient of the wrong shape", op=name,
                                 expected=f"shape {list(x.shape)} for input {i}",
                                 got=f"shape {list(g.shape)}")
            g = g if STATE.level else g._data  # nothing records: plain arrays, fast path
        result.append(g)
    return tuple(result)


def _tensor(value) -> Tensor:
    return value if isinstance(value, Tensor) else wrap(value)


def _name(fn) -> str:
    owner = getattr(fn, "__self__", None)
    if owner is not None:
        return f"{type(owner).__name__}.{getattr(fn, '__name__', 'construct')}"
    return getattr(fn, "__qualname__", None) or type(fn).__name__


def custom_bprop(bprop: Callable) -> Callable:
    """Decorator: the decorated function is differentiated with ``bprop`` (see the module
    doc)."""
    def decorate(forward: Callable) -> Callable:
        @functools.wraps(forward, updated=())
        def wrapper(*inputs):
            return call_with_bprop(forward, bprop, *inputs)
        return wrapper
    return decorate
