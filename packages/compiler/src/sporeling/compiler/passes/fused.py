"""The ``fused_elementwise`` primitive: a small elementwise expression as one equation.

``expr`` (a parameter) is a tuple of nodes evaluated in order, the last one the result::

    (primitive_name, operands, params, shape, dtype)

with operands ``("in", i)`` (the equation's i-th operand), ``("node", j)`` (an earlier
node) or ``("const", value, dtype)`` (a scalar), and ``params`` sorted ``(key, value)``
pairs. The runtime's kernel of the same name evaluates it with preallocated buffers (a
backend without one lowers the nodes as separate equations: the decomposition). The
abstract rule runs the nodes' abstract rules; the backward rule *un-fuses*: it recomputes the
nodes with the ops and applies their backward rules in reverse, so grad (and grad of grad)
of a fused graph works, and the recomputation fuses again in the backward graph.

    >>> import numpy as np
    >>> f32 = np.dtype("float32")
    >>> expr = (("mul", (("in", 0), ("const", 3.0, f32)), (), (2,), f32),
    ...         ("add", (("node", 0), ("in", 1)), (), (2,), f32))
    >>> fused_call(expr, np.ones(2, f32), np.arange(2, dtype=f32))
    array([3., 4.], dtype=float32)
"""
from __future__ import annotations

import numpy as np

from sporeling.core import ShapeError

from ..core import Aval, Primitive, backward_rule, bind, def_backward
from ..core.primitive import primitives

__all__ = ["fused_elementwise_p", "fused_call", "expand"]

fused_elementwise_p = Primitive("fused_elementwise", fusible=True)


def _operand(ref, inputs, values):
    kind = ref[0]
    if kind == "in":
        if ref[1] >= len(inputs):
            raise ShapeError("expression reads a missing operand", op="fused_elementwise",
                             expected=f"fewer than {len(inputs)} operands", got=ref)
        return inputs[ref[1]]
    if kind == "node":
        return values[ref[1]]
    return np.asarray(ref[1], dtype=ref[2])


@fused_elementwise_p.def_abstract_eval
def _fused_aval(*avals, expr):
    prims = primitives()
    values: list = []
    for name, refs, params, shape, dtype in expr:
        args = [_operand(r, avals, values) for r in refs]
        got = prims[name].abstract(*(Aval(tuple(np.shape(a)), a.dtype) for a in args),
                                   **dict(params))
        if tuple(got.shape) != tuple(shape) or np.dtype(got.dtype) != np.dtype(dtype):
            raise ShapeError("a node of the fused expression disagrees with its rule",
                             op="fused_elementwise", expected=f"{name} -> {got}",
                             got=f"{np.dtype(dtype)}{list(shape)}")
        values.append(got)
    return Aval(tuple(values[-1].shape), np.dtype(values[-1].dtype))


def expand(expr: tuple, inputs, *, last=None) -> list:
    """Every node's value computed with the primitives (on any interpreter's values);
    ``last``, when given, stands for the final node instead of computing it."""
    prims = primitives()
    values: list = []
    for k, (name, refs, params, _, _) in enumerate(expr):
        if last is not None and k == len(expr) - 1:
            values.append(last)
            break
        values.append(bind(prims[name], *(_operand(r, inputs, values) for r in refs),
                           **dict(params)))
    return values


# a backend without the fused kernel runs the chain's nodes one by one: the nodes themselves
fused_elementwise_p.def_decomposition(lambda *inputs, expr: expand(expr, inputs)[-1])


def fused_call(expr: tuple, *inputs):
    """Apply ``fused_elementwise`` with ``expr`` to ``inputs``."""
    return bind(fused_elementwise_p, *inputs, expr=expr)


def _accumulate(slot: list, i: int, g) -> None:
    if slot[i] is None:
        slot[i] = g
    else:
        from ..ops import add
        slot[i] = add(slot[i], g)


@def_backward(fused_elementwise_p)
def _fused_bwd(ct, *inputs, out, expr):
    prims = primitives()
    values = expand(expr, inputs, last=out)
    node_cts: list = [None] * len(expr)
    node_cts[-1] = ct
    grads: list = [None] * len(inputs)
    for k in range(len(expr) - 1, -1, -1):
        g = node_cts[k]
        name, refs, params, _, _ = expr[k]
        prim = prims[name]
        if g is None or not prim.differentiable:
            continue
        rule = backward_rule(prim)
        kwargs = dict(params)
        if rule.selective:
            kwargs["needs"] = tuple(r[0] != "const" for r in refs)
        args = [_operand(r, inputs, values) for r in refs]
        for ref, gi in zip(refs, rule.fn(g, *args, out=values[k], **kwargs)):
            if gi is None or ref[0] == "const":
                continue
            _accumulate(node_cts if ref[0] == "node" else grads, ref[1], gi)
    return tuple(grads)
