"""The interpreter stack: per-thread layers that say what a bound primitive means now.

Values own interpreters -- a Tensor its PyNative one, a Tracer its trace, a batched value its
``vmap`` -- and :func:`~sporeling.compiler.core.primitive.bind` hands a primitive to the
highest-level owner among its operands. What no value carries lives here, as layers of a
stack that is **per thread** and changed only by context managers, never by patching a
global:

* a graph trace (:func:`~sporeling.compiler.ir.make_graph`) receives the primitives bound
  without operands (``rng_seed``): :func:`receiver`;
* Graph-mode tracing of Tensor code makes the PyNative interpreter dispatch through
  ``bind`` (so Tensors holding tracers reach their trace) and lifts the Parameters the
  trace reads (``sporeling.expression``);
* an AMP cast policy casts the operands of listed primitives (``sporeling.amp``).

So one thread can trace while another trains eagerly, each seeing only its own layers.

    >>> class Note(Layer):
    ...     pass
    >>> with pushed(Note()) as note:
    ...     innermost(Note) is note
    True
    >>> innermost(Note) is None
    True
"""
from __future__ import annotations

import contextlib
import threading
from typing import Iterator, TypeVar

__all__ = ["Layer", "STACK", "push", "pop", "pushed", "layers", "innermost", "receiver"]

L = TypeVar("L", bound="Layer")


class Layer:
    """A layer of the stack; what it does is said by these attributes, read by the
    interpreters that consult the stack:

    * ``receives_fresh`` -- fresh primitives bound without operands go to it (a trace);
    * ``rebind`` -- Tensor ops dispatch through ``bind`` (a Graph-mode trace: the Tensors
      hold tracers);
    * ``operand_hook(prim, args) -> args`` -- applied to a Tensor op's operands (an AMP
      cast policy); the innermost layer that has one decides;
    * ``compile_key()`` -- what a graph compiled under this layer depends on (joins the
      compile cache's key).
    """
    receives_fresh = False
    rebind = False
    operand_hook = None
    compile_key = None


class _Stack(threading.local):
    def __init__(self):
        self.layers: list[Layer] = []


_STACK = _Stack()
STACK = _STACK
"""``STACK.layers``: this thread's layers, for hot paths that cannot afford a call."""


def layers() -> list[Layer]:
    """This thread's layers, innermost last (the list itself: read it, do not change it)."""
    return _STACK.layers


def push(layer: L) -> L:
    """Make ``layer`` this thread's innermost; undo with :func:`pop` (or use :func:`pushed`)."""
    _STACK.layers.append(layer)
    return layer


def pop(layer: Layer) -> None:
    """Remove ``layer`` and any layer an abandoned inner scope left above it."""
    stack = _STACK.layers
    if layer in stack:
        del stack[stack.index(layer):]


@contextlib.contextmanager
def pushed(layer: L) -> Iterator[L]:
    """``with pushed(layer):`` -- ``layer`` is the innermost one of this thread inside."""
    push(layer)
    try:
        yield layer
    finally:
        pop(layer)


def innermost(kind: type[L]) -> L | None:
    """This thread's innermost layer that is a ``kind``, or None."""
    for layer in reversed(_STACK.layers):
        if isinstance(layer, kind):
            return layer
    return None


def receiver() -> Layer | None:
    """The innermost layer receiving operand-less primitives (a trace), or None: where
    ``bind`` sends a primitive declared ``fresh_per_run`` (``rng_seed``) -- an equation of
    the graph being built, run on every execution -- instead of computing it once."""
    for layer in reversed(_STACK.layers):
        if layer.receives_fresh:
            return layer
    return None
