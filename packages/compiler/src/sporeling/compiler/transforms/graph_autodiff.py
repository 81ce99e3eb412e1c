"""Reverse-mode autodiff as a graph transformation (IR -> IR).

The new graph is traced (:func:`~sporeling.compiler.ir.make_graph`) from an evaluation of the
old one under :func:`sporeling.compiler.autodiff.vjp`: every equation is bound again on
tape values, and the backward rules -- written with the ops -- bind on tracers, so the
backward pass lands in the same graph as the forward. The rules are PyNative's; applying a
transformation twice gives higher derivatives.

    >>> import numpy as np
    >>> from sporeling.compiler import ops
    >>> from sporeling.compiler.ir import evaluate, make_graph
    >>> g = make_graph(lambda x: ops.sum(ops.mul(ops.mul(x, x), x)), np.array(2.0))
    >>> evaluate(grad_graph(grad_graph(g)), np.array(2.0))  # d2/dx2 x^3 = 6x
    [array(12.)]
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from sporeling.core import ShapeError, SporelingError, dtypes

from ..autodiff import TapeValue, vjp
from ..ir import Graph, evaluate, make_graph
from ..ir.pytree import flatten

__all__ = ["grad_graph", "vjp_graph", "value_and_grad_graph", "derived"]

def derived(new: Graph, old: Graph, name: str, out) -> Graph:
    """``new`` named after ``old`` with the metadata that still holds: the same inputs
    (captured values included), outputs nested like ``out``."""
    new.name = f"{name}({old.name})"
    new.meta.update(in_tree=old.meta.get("in_tree"), captured=old.meta.get("captured", []),
                    out_tree=flatten(out)[1])
    return new


def _argnums(graph: Graph, argnums) -> tuple[int, ...]:
    nums = (argnums,) if isinstance(argnums, (int, np.integer)) else tuple(argnums)
    n = len(graph.inputs)
    for i in nums:
        if not -n <= i < n:
            raise SporelingError("argnums out of range", op="grad_graph",
                                 expected=f"input indices in [-{n}, {n})", got=argnums)
        if not dtypes.is_floating(graph.inputs[i].aval.dtype):
            raise SporelingError("cannot differentiate with respect to a non-float input",
                                 op="grad_graph", expected="float inputs",
                                 got=f"input {i}: {graph.inputs[i].aval}")
    return tuple(i % n for i in nums)


def _unwrap(x):
    return x.value if isinstance(x, TapeValue) else x


def _forward_backward(graph: Graph, nums: Sequence[int], has_aux: bool, flat):
    """``(loss, aux, grads)`` of the graph's first output on inputs ``flat``."""
    if not graph.outputs:
        raise SporelingError("a graph without outputs has no gradient", op="grad_graph")
    aux: list = []

    def loss(*diff):
        full = list(flat)
        for i, d in zip(nums, diff):
            full[i] = d
        outs = evaluate(graph, *full)
        if len(outs) > 1 and not has_aux:
            raise SporelingError("grad needs a single output", op="grad_graph",
                                 expected="one scalar output (or has_aux=True)",
                                 got=f"{len(outs)} outputs")
        aux.extend(outs[1:])
        return outs[0]

    out, pullback = vjp(loss, *(flat[i] for i in nums))
    if tuple(out.shape) != ():
        raise ShapeError("grad needs a scalar output", op="grad_graph", expected="shape ()",
                         got=tuple(out.shape), hint="use vjp_graph with a cotangent")
    grads = pullback(np.ones((), out.dtype))
    return out, [_unwrap(a) for a in aux], grads


def grad_graph(graph: Graph, argnums=0, has_aux: bool = False) -> Graph:
    """The graph of the gradient of ``graph``'s scalar output with respect to the inputs
    ``argnums`` (an int: one gradient; a tuple: a tuple of them). It has ``graph``'s inputs.
    With ``has_aux``, the first output is the loss and the others are returned after the
    gradients, as ``(grads, aux)``."""
    nums = _argnums(graph, argnums)

    def fn(*flat):
        _, aux, grads = _forward_backward(graph, nums, has_aux, flat)
        grads = grads[0] if isinstance(argnums, (int, np.integer)) else tuple(grads)
        return (grads, tuple(aux)) if has_aux else grads

    new = make_graph(fn, *graph.in_avals, name="grad", record_source=False)
    return derived(new, graph, "grad",
                   _structure(graph, argnums, has_aux, len(graph.outputs) - 1))


def value_and_grad_graph(graph: Graph, argnums=0, has_aux: bool = False) -> Graph:
    """One graph computing ``graph``'s outputs and the gradient of its first (scalar) output:
    outputs ``(loss, grads)``, or ``((loss, aux), grads)`` with ``has_aux`` -- forward and
    backward compiled together."""
    nums = _argnums(graph, argnums)

    def fn(*flat):
        out, aux, grads = _forward_backward(graph, nums, has_aux, flat)
        grads = grads[0] if isinstance(argnums, (int, np.integer)) else tuple(grads)
        value = (_unwrap(out), tuple(aux)) if has_aux else _unwrap(out)
        return value, grads

    new = make_graph(fn, *graph.in_avals, name="value_and_grad", record_source=False)
    grads = _structure(graph, argnums, False, 0)
    value = (0, (0,) * (len(graph.outputs) - 1)) if has_aux else 0
    return derived(new, graph, "value_and_grad", (value, grads))


def _structure(graph, argnums, has_aux, n_aux):
    grads = 0 if isinstance(argnums, (int, np.integer)) else (0,) * len(tuple(argnums))
    return (grads, (0,) * n_aux) if has_aux else grads


def vjp_graph(graph: Graph, wrt: Sequence[int] | None = None, of: Sequence[int] | None = None,
              *, outputs: bool = True) -> Graph:
    """The graph of ``graph``'s vector-Jacobian product.

    Inputs: ``graph``'s inputs, then one cotangent per output listed in ``of`` (default:
    every output). Outputs: those outputs (unless ``outputs=False``), then the
    cotangent of each input listed in ``wrt`` (default: every input; zeros for inputs that
    are not floats or that the outputs do not depend on), in that input's dtype. The
    control-flow primitives' backward rules are built from it (``wrt``/``of``: their
    floating operands and results)."""
    n_in = len(graph.inputs)
    wrt = tuple(range(n_in)) if wrt is None else tuple(wrt)
    of = tuple(range(len(graph.outputs))) if of is None else tuple(of)
    diff = [i for i in wrt if dtypes.is_floating(graph.inputs[i].aval.dtype)]

    def fn(*flat):
        primals, cts = list(flat[:n_in]), flat[n_in:]

        def f(*xs):
            full = list(primals)
            for i, x in zip(diff, xs):
                full[i] = x
            outs = evaluate(graph, *full)
            return tuple(outs[j] for j in of)

        outs, pullback = vjp(f, *(primals[i] for i in diff))
        grads = dict(zip(diff, pullback(tuple(cts)))) if diff else {}
        in_cts = [_as_dtype(grads[i], v.aval.dtype) if i in grads else
                  np.zeros(v.aval.shape, v.aval.dtype)
                  for i, v in ((i, graph.inputs[i]) for i in wrt)]
        return (list(outs), in_cts) if outputs else in_cts

    avals = graph.in_avals + [graph.outputs[j].aval for j in of]
    new = make_graph(fn, *avals, name="vjp", record_source=False)
    new.name = f"vjp({graph.name})"
    new.meta.update(captured=[])
    return new


def _as_dtype(grad, dtype):
    from ..ops import cast
    return grad if np.dtype(grad.dtype) == np.dtype(dtype) else cast(grad, dtype)
