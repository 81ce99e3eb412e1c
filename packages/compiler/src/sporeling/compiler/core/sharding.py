"""Sharding rules: for each primitive, how its operands' dimensions relate.

A rule ``rule(eq) -> OpDims | None`` turns an equation into :class:`OpDims`: one *label* per
dimension of every operand and result. Dimensions sharing a label are split together (the
rows of ``x`` and of ``x @ w``); a label in ``fixed`` must stay whole on every device (the
softmax axis, the axes a layer norm normalises, a kernel's spatial axes); a label in
``reduce`` appears in operands but not in results -- splitting it leaves each device with a
partial result to be reduced (``"sum"`` for a matmul's contracted dimension). ``local``
computes the op on one device's blocks when re-binding the primitive with adjusted
parameters is not enough (an embedding whose table rows are split).

A rule lives on its primitive (:meth:`Primitive.def_sharding_rule`, or
:func:`def_sharding_rule` for several primitives), next to its other rules; an
``elementwise=True`` primitive gets the broadcasting rule here. A primitive without a rule
(or whose rule answers None) runs replicated: every device computes it whole. This module
is data only; ``sporeling.parallel`` turns the labels into layouts, propagation and
redistribution.

    >>> import numpy as np
    >>> from sporeling.compiler import ops
    >>> from sporeling.compiler.ir import make_graph
    >>> g = make_graph(ops.matmul, np.ones((4, 3), np.float32), np.ones((3, 2), np.float32))
    >>> d = op_dims(g.equations[0])
    >>> d.inputs, d.outputs, d.reduce
    ([('m', 'k'), ('k', 'n')], [('m', 'n')], {'k': 'sum'})
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .primitive import Primitive

__all__ = ["OpDims", "def_sharding_rule", "op_dims", "has_sharding_rule", "replicated",
           "Fresh", "shape_of", "labels", "norm_axes", "broadcast_dims", "elementwise_dims"]


@dataclass
class OpDims:
    """Labels per dimension of an equation's operands and results (see the module doc)."""
    inputs: list[tuple[str, ...]]
    outputs: list[tuple[str, ...]]
    fixed: set[str] = field(default_factory=set)
    reduce: dict[str, str] = field(default_factory=dict)
    local: Callable | None = None          # local(eq, rank_info, *blocks) -> result(s)
    local_params: Callable | None = None   # local_params(eq, out_local_shapes) -> params

    @property
    def labels(self) -> list[str]:
        """Every label in first-seen order (the order device axes are handed out in)."""
        seen: dict[str, None] = {}
        for dims in self.inputs + self.outputs:
            for label in dims:
                seen.setdefault(label, None)
        return list(seen)

    @property
    def splittable(self) -> list[str]:
        return [lab for lab in self.labels if lab not in self.fixed]


def def_sharding_rule(*prims: Primitive):
    """Decorator: ``rule(eq) -> OpDims | None`` becomes the sharding rule of ``prims``."""
    def put(rule: Callable) -> Callable:
        for prim in prims:
            prim.sharding = rule
        return rule
    return put


def has_sharding_rule(prim: Primitive) -> bool:
    """Whether ``prim`` has a sharding rule (its own, or the elementwise one)."""
    return prim.sharding is not None or prim.elementwise


def op_dims(eq) -> OpDims:
    """The OpDims of ``eq``: its primitive's rule, the broadcasting rule of an elementwise
    primitive, else all fixed (replicated)."""
    rule = eq.prim.sharding
    if rule is None and eq.prim.elementwise:
        rule = elementwise_dims
    dims = rule(eq) if rule is not None else None
    return dims if dims is not None else replicated(eq)


def replicated(eq) -> OpDims:
    """Every dimension fixed: each device computes ``eq`` whole."""
    dims = OpDims([], [])
    n = 0
    for group, target in ((eq.inputs, dims.inputs), (eq.outputs, dims.outputs)):
        for v in group:
            names = tuple(f"r{n + i}" for i in range(len(v.aval.shape)))
            n += len(names)
            target.append(names)
            dims.fixed.update(names)
    return dims


# ---- helpers the rules share -------------------------------------------------------------

def shape_of(v) -> tuple:
    return tuple(v.aval.shape)


def labels(n: int, prefix: str = "d") -> tuple[str, ...]:
    """``("d0", "d1", ...)``: one label per dimension."""
    return tuple(f"{prefix}{i}" for i in range(n))


def norm_axes(axis, ndim: int) -> tuple[int, ...]:
    """``axis`` (None, an int or several) as non-negative axes."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, int):
        axis = (axis,)
    return tuple(a % ndim for a in axis)


class Fresh:
    """Fresh labels ``f1, f2...`` for dimensions that relate to no other."""

    def __init__(self, prefix: str = "f"):
        self.prefix, self.n = prefix, 0

    def __call__(self) -> str:
        self.n += 1
        return f"{self.prefix}{self.n}"


def broadcast_dims(in_shapes, out_shape, fixed: set, fresh: Fresh):
    """Right-aligned labels; a size-1 dimension broadcast against a longer one stays whole
    (added to ``fixed``)."""
    out = labels(len(out_shape))
    ins = []
    for shape in in_shapes:
        offset = len(out_shape) - len(shape)
        row = []
        for j, n in enumerate(shape):
            if n == 1 and out_shape[offset + j] != 1:
                label = fresh()
                fixed.add(label)
            else:
                label = out[offset + j]
            row.append(label)
        ins.append(tuple(row))
    return ins, out


def elementwise_dims(eq) -> OpDims:
    """The rule of every ``elementwise=True`` primitive: any dimension splits, operands
    alike, except where an operand broadcasts."""
    fixed: set[str] = set()
    ins, out = broadcast_dims([shape_of(v) for v in eq.inputs], shape_of(eq.outputs[0]),
                              fixed, Fresh())
    return OpDims(ins, [out], fixed)
