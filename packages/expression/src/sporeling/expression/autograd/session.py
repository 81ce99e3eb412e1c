"""One ``grad`` call at work: its leaves, its forward under recording, its backward.

Leaves are fresh nodes for the differentiated inputs and the watched Parameters. When this
``grad`` runs inside another one (grad of grad) and an input already carries a node of the
outer ``grad``, its leaf keeps that node as a parent; after this backward pass the leaf is
turned into an identity step, so the outer ``grad`` differentiates through it.

The outermost ``grad`` frees each saved forward value as soon as its last backward user has
run (``backprop(release=True)``; ``set_context(grad_release=False)`` keeps them all until
the end, to compare). A nested one keeps them: the outer ``grad`` differentiates the inner
backward, which reads them again.
"""
from __future__ import annotations

import numpy as np

from sporeling.core import dtypes, get_context
from sporeling.compiler import ops
from sporeling.compiler.autodiff.tape import Node, backprop
from sporeling.compiler.core import Aval, BackwardRule, eager
from sporeling.compiler.ops.elementwise import add_p

from ..tensor.tensor import Tensor, wrap
from .ready import ready_callbacks
from .state import STATE, Tape

__all__ = ["GradSession", "live_node"]


def live_node(t):
    """``(node, index)`` if ``t`` is a Tensor recorded on the current tape, else None."""
    if isinstance(t, Tensor) and t._node is not None and t._tape is STATE.tape \
            and STATE.tape is not None:
        return t._node, t._index
    return None


class _Identity:
    """What a leaf becomes after its ``grad`` finished: a step the outer grad passes."""
    name = "grad_input"
    multiple_results = False
    differentiable = True


_IDENTITY = _Identity()
_IDENTITY_RULE = BackwardRule(lambda ct, x, *, out: (ct,), frozenset())


class GradSession:
    """Context manager around one ``grad`` evaluation (see the module doc)."""

    def __init__(self):
        self._saved = (STATE.level, STATE.tape)
        self.nested = STATE.level > 0
        self.tape = STATE.tape if self.nested else Tape(bool(get_context("grad_release")))
        self._leaves: dict[int, Node] = {}
        self._watched: list[tuple] = []
        self._outer_leaves: list[Node] = []

    def __enter__(self) -> "GradSession":
        STATE.level, STATE.tape = self._saved[0] + 1, self.tape
        return self

    def __exit__(self, *exc) -> None:
        for p, node, index, tape in reversed(self._watched):
            p._node, p._index, p._tape = node, index, tape
        STATE.level, STATE.tape = self._saved

    def _leaf(self, t: Tensor) -> Node | None:
        if not dtypes.is_floating(t.dtype):
            return None  # integers and bools carry no gradient
        parent = live_node(t)
        node = Node(None, None, (parent,) if parent else (), (), None,
                    (Aval(t.shape, t.dtype),), None)
        if parent:
            self._outer_leaves.append(node)
        return node

    def input(self, value) -> Tensor:
        """A Tensor standing for the differentiated argument ``value``."""
        source = value if isinstance(value, Tensor) else Tensor(value)
        t = wrap(source._data)
        node = self._leaf(source)
        if node is not None:
            t._node, t._tape = node, self.tape
            self._leaves[id(t)] = node
        return t

    def watch(self, p) -> None:
        """Differentiate with respect to Parameter ``p`` (as used inside the function)."""
        if id(p) in self._leaves:
            return
        node = self._leaf(p)
        self._watched.append((p, p._node, p._index, p._tape))
        if node is not None:
            p._node, p._index, p._tape = node, 0, self.tape
            self._leaves[id(p)] = node

    def backward(self, roots: list[tuple[Tensor, object]], targets: list) -> list:
        """Cotangents of ``targets`` (Tensors given by :meth:`input` or watched) from
        ``roots``, ``(output, cotangent)`` pairs; zeros where no gradient arrives."""
        STATE.level -= 1  # this grad's forward is over; outer ones record its backward
        outer = STATE.level > 0
        starts = []
        for out, ct in roots:
            where = live_node(out)
            if where is not None:
                starts.append((where[0], where[1],
                               ct if outer or not isinstance(ct, Tensor) else ct._data))
        callbacks = ready_callbacks()
        on_leaf = self._on_leaf(callbacks) if callbacks and not outer else None
        cts = backprop(starts, release=self.tape.release and not self.nested,
                       add=None if outer else _add_arrays, on_leaf=on_leaf)
        for node in self._outer_leaves:
            node.prim, node.rule, node.params = _IDENTITY, _IDENTITY_RULE, {}
            node.saved_in, node.saved_out = (node.out_avals[0],), node.out_avals[0]
        grads = []
        for t in targets:
            node = self._leaves.get(id(t))
            g = None if node is None else cts.get(id(node))
            if g is None:
                g = _zeros(t)
            elif not isinstance(g, Tensor):
                g = wrap(g)
            elif not outer:
                g = wrap(g._data)
            grads.append(g)
        return grads

    def _on_leaf(self, callbacks):
        """``backprop``'s ``on_leaf``: report watched Parameters' final gradients."""
        params = {id(self._leaves[id(p)]): p for p, *_ in self._watched
                  if id(p) in self._leaves}

        def on_leaf(node, ct):
            p = params.get(id(node))
            if p is not None and ct is not None:
                g = ct._data if isinstance(ct, Tensor) else ct
                for callback in list(callbacks):
                    callback(p, g)
        return on_leaf


def _zeros(t: Tensor) -> Tensor:
    return wrap(np.zeros(t.shape, t.dtype))


_ndarray = np.ndarray


def _add_arrays(a, b):
    """Cotangent accumulation when nothing records it: arrays of one dtype and shape go
    straight to the kernel (the op's promotion and broadcasting checks are for the rest)."""
    if type(a) is _ndarray and type(b) is _ndarray and a.dtype == b.dtype \
            and a.shape == b.shape:
        return eager.apply(add_p, (a, b), _NO_PARAMS)
    return ops.add(a, b)


_NO_PARAMS: dict = {}
