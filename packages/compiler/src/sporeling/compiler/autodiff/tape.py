"""The record of a forward pass, and the reverse walk over it.

Both eager autodiff paths use this: the compiler's :func:`~.vjp.vjp` (values wrapped in
``TapeValue``) and PyNative ``grad`` in ``sporeling.expression`` (Tensors carry the nodes).

A :class:`Node` remembers a primitive application: its parameters, where each input came from
(``(node, output index)`` or ``None`` for constants), and only the operands its backward
rule reads (the rule's ``uses``); the rest are kept as Avals. :func:`backprop` walks nodes
in reverse topological order and, with ``release=True``, drops each node's saved operands as
soon as its rule has run -- so a forward value returns to the memory pool the moment the last
backward rule that reads it is done (MindSpore's ref-count release).
"""
from __future__ import annotations

import itertools
import operator

import numpy as np

from ..core import Aval, aval_of, backward_rule
from ..core.primitive import Primitive

__all__ = ["Node", "leaf", "record", "backprop"]


class Node:
    """One recorded primitive application (``prim is None`` for a leaf: a differentiated input)."""
    __slots__ = ("prim", "params", "parents", "saved_in", "saved_out", "out_avals", "rule",
                 "seq", "__weakref__")

    def __init__(self, prim, params, parents, saved_in, saved_out, out_avals, rule):
        self.prim, self.params, self.parents = prim, params, parents
        self.saved_in, self.saved_out, self.out_avals, self.rule = \
            saved_in, saved_out, out_avals, rule
        # creation order: a node's inputs exist before it, so sorting by ``seq`` is a
        # topological order (no second walk over the graph to find one)
        self.seq = next(_SEQ)

    @property
    def released(self) -> bool:
        return self.prim is not None and self.saved_in is None

    def __repr__(self) -> str:
        return f"<Node {self.prim.name if self.prim else 'leaf'}>"


_SEQ = itertools.count()
_by_seq = operator.attrgetter("seq")
_ndarray = np.ndarray
_new_tuple = tuple.__new__


def _aval(x) -> Aval:
    # aval_of without its conversions for the common operand, an ndarray
    if type(x) is _ndarray:
        return _new_tuple(Aval, (x.shape, x.dtype))
    return aval_of(x)


def leaf(value) -> Node:
    """The node of a value that gradients are taken with respect to."""
    return Node(None, None, (), (), None, (aval_of(value),), None)


def record(prim: Primitive, params: dict, inputs: tuple, parents: tuple, out) -> Node:
    """A node for ``out = prim(*inputs, **params)``; ``parents[i]`` is ``(node, index)`` or None."""
    rule = prim.backward or backward_rule(prim)  # the call raises our error
    uses = rule.uses
    if uses is None:
        saved_in = inputs
    elif len(inputs) == 2:  # most ops: no comprehension (a call in 3.11)
        a, b = inputs
        saved_in = (a if 0 in uses else _aval(a), b if 1 in uses else _aval(b))
    else:
        saved_in = tuple([x if i in uses else _aval(x) for i, x in enumerate(inputs)])
    if prim.multiple_results:
        out_avals = tuple([_aval(o) for o in out])
        saved_out = out if uses is None or "out" in uses else out_avals
    else:
        out_avals = (_aval(out),)
        saved_out = out if uses is None or "out" in uses else out_avals[0]
    return Node(prim, params, parents, saved_in, saved_out, out_avals, rule)


def _reverse_topological(roots: list[Node]) -> list[Node]:
    found, stack = {}, list(roots)
    while stack:  # iterative: deep graphs must not hit the recursion limit
        node = stack.pop()
        if id(node) not in found:
            found[id(node)] = node
            stack.extend([p[0] for p in node.parents if p is not None])
    return sorted(found.values(), key=_by_seq, reverse=True)


def _final_after(order: list[Node]) -> dict[int, list[Node]]:
    """``{id(n): leaves}``: the leaves whose last reader (in backward order) comes just
    before node ``n`` -- their cotangents are final when the walk reaches ``n``. ``order``
    ends with the leaves themselves, so every leaf with a reader gets an entry."""
    last_reader: dict[int, int] = {}  # id(leaf) -> position of its lowest-seq reader
    for i, node in enumerate(order):
        for p in node.parents:
            if p is not None and p[0].prim is None:
                last_reader[id(p[0])] = i
    final: dict[int, list[Node]] = {}
    for i, node in enumerate(order):
        if node.prim is None and id(node) in last_reader:
            after = order[last_reader[id(node)] + 1]  # exists: the leaf itself comes later
            final.setdefault(id(after), []).append(node)
    return final


def _zeros(aval: Aval):
    return np.zeros(aval.shape, aval.dtype)


def backprop(roots: list[tuple[Node, int, object]], *, release: bool = True,
             add=None, on_leaf=None) -> dict[int, object]:
    """Propagate cotangents ``(node, output index, ct)`` back to the leaves.

    Returns ``{id(leaf node): cotangent}``. ``add`` accumulates two cotangents (the ops'
    ``add``, so that accumulation is recorded too when differentiating again).
    ``on_leaf(leaf, ct)``, when given, is called as soon as a leaf's cotangent is final --
    right after the last (lowest-``seq``) node reading the leaf ran its rule -- while the
    rest of the backward pass is still to come (data parallelism starts reducing it then).
    """
    if add is None:
        from ..ops import add
    cts: dict[int, list] = {}

    def accumulate(node: Node, index: int, ct) -> None:
        slots = cts.get(id(node))
        if slots is None:
            slots = cts[id(node)] = [None] * len(node.out_avals)
        slots[index] = ct if slots[index] is None else add(slots[index], ct)

    for node, index, ct in roots:
        accumulate(node, index, ct)
    leaves: dict[int, object] = {}
    order = _reverse_topological([r[0] for r in roots])
    final_after = _final_after(order) if on_leaf is not None else None
    for node in order:
        if final_after is not None and id(node) in final_after:
            for leaf_node in final_after[id(node)]:  # every reader of these leaves has run
                slot = cts.get(id(leaf_node))
                on_leaf(leaf_node, None if slot is None else slot[0])
        slots = cts.pop(id(node), None)
        if slots is None:
            continue
        prim = node.prim
        if prim is None:
            leaves[id(node)] = slots[0]
            continue
        if node.saved_in is None:
            raise RuntimeError(f"backward through {prim.name!r} a second time: its saved "
                               "values were released after the first backward pass")
        if prim.multiple_results:
            ct = tuple(c if c is not None else _zeros(a) for c, a in zip(slots, node.out_avals))
        else:
            ct = slots[0]
        rule = node.rule
        if rule.selective:
            needs = tuple([p is not None for p in node.parents])
            in_cts = rule.fn(ct, *node.saved_in, out=node.saved_out, needs=needs,
                             **node.params)
        else:
            in_cts = rule.fn(ct, *node.saved_in, out=node.saved_out, **node.params)
        if release:
            node.saved_in = node.saved_out = None
        for parent, g in zip(node.parents, in_cts):
            if parent is not None and g is not None:  # accumulate(), inlined: every edge
                into = parent[0]
                slots = cts.get(id(into))
                if slots is None:
                    slots = cts[id(into)] = [None] * len(into.out_avals)
                index = parent[1]
                slots[index] = g if slots[index] is None else add(slots[index], g)
    return leaves
