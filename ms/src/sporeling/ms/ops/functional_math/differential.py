"""Differential functions of ``mindspore.ops`` (r2.3): ``grad``, ``value_and_grad``,
``get_grad``, ``jvp``, ``vjp``, ``jacfwd``, ``jacrev``, ``vmap``.

``grad``/``value_and_grad`` are ``sx.grad``/``sx.value_and_grad`` (MindSpore's semantics:
``grad_position``, ``weights``, ``has_aux``) plus ``return_ids`` and MindSpore's implicit
all-ones sensitivity: a non-scalar output (or each output of a tuple) is differentiated as if
its cotangent were ones, i.e. as its sum (``sx.grad`` asks for a scalar or an explicit
``sens``). ``ms.grad``/``ms.value_and_grad`` are these functions. ``vjp`` and ``jvp`` are
built on ``sx.grad(sens_param=True)`` -- ``jvp`` as the derivative of the (linear) VJP in its
cotangent, so no primitive needs a forward rule; the Jacobians stack one VJP (``jacrev``) or
JVP (``jacfwd``) per output/input element. ``vmap`` is ``sporeling.compiler.transforms.vmap``.
"""
from __future__ import annotations

import functools

import numpy as np

import sporeling.expression as sx
from sporeling.compiler.transforms import vmap as _vmap

from sporeling.core.errors import ArgumentError

from ._util import SporelingError, Tensor, ops, result, tensor

__all__ = ["grad", "value_and_grad", "get_grad", "jvp", "vjp", "jacfwd", "jacrev", "vmap"]


def _positions(grad_position):
    return (grad_position,) if isinstance(grad_position, int) else tuple(grad_position or ())


def _with_ids(grads, grad_position, weights):
    """MindSpore's ``return_ids``: each gradient as ``(position or parameter name, grad)``."""
    def ids_for_inputs(g):
        pos = _positions(grad_position)
        if isinstance(grad_position, int):
            return (grad_position, g)
        return tuple((p, gi) for p, gi in zip(pos, g))

    def ids_for_weights(g):
        ws = list(weights) if isinstance(weights, (list, tuple)) else [weights]
        if not isinstance(weights, (list, tuple)):
            return (ws[0].name, g)
        return tuple((w.name, gi) for w, gi in zip(ws, g))

    if grad_position is not None and weights is not None:
        return (ids_for_inputs(grads[0]), ids_for_weights(grads[1]))
    if weights is not None:
        return ids_for_weights(grads)
    return ids_for_inputs(grads)


def _floating(t) -> bool:
    dtype = getattr(t, "dtype", None)
    return dtype is not None and (np.dtype(dtype).kind == "f" or str(dtype) == "bfloat16")


def _total(outputs):
    """The sum of every element of ``outputs`` (a Tensor, or nested tuples/lists of them):
    differentiating it is differentiating ``outputs`` with an all-ones cotangent. Non-float
    outputs of a tuple carry no gradient and are left out (all of them non-float: the sum
    of the first, which ``sx.grad`` refuses with its own error)."""
    flat = []

    def walk(o):
        if isinstance(o, (tuple, list)):
            for item in o:
                walk(item)
        else:
            flat.append(o)
    walk(outputs)
    floats = [o for o in flat if _floating(o)] or flat[:1]
    total = None
    for o in floats:
        part = ops.sum(o) if len(getattr(o, "shape", ())) else o   # scalars as they are
        total = part if total is None else ops.add(total, part)
    return total


def _ones_sens_value_and_grad(fn, grad_position, weights, has_aux):
    """``sx.value_and_grad`` of ``fn`` with MindSpore's all-ones sensitivity: ``fn`` is
    wrapped to return ``(sum of the differentiated outputs, fn's own output)`` with the own
    output as auxiliary value, so the value given back is ``fn``'s (not the sum)."""
    def summed(*args, **kwargs):
        out = fn(*args, **kwargs)
        if has_aux:
            if not isinstance(out, tuple) or len(out) < 2:
                raise sx.GradError("has_aux=True needs (out, aux...) from the function",
                                   op="grad", expected="a tuple of 2 or more",
                                   got=type(out).__name__)
            return _total(out[0]), out
        return _total(out), out
    summed.__name__ = getattr(fn, "__name__", type(fn).__name__)
    vg = sx.value_and_grad(summed, grad_position, weights, has_aux=True)

    def run(*args, **kwargs):
        (_, value), grads = vg(*args, **kwargs)
        return value, grads
    return run


def _one_position_unwrapped(grads, grad_position, weights):
    """MindSpore 2.10 gives the gradient of a one-position tuple (``grad_position=(0,)``)
    as the Tensor itself, not a 1-tuple (with ``weights``: ``(Tensor, weight grads)``)."""
    if not (isinstance(grad_position, tuple) and len(grad_position) == 1):
        return grads
    return grads[0] if weights is None else (grads[0][0], grads[1])


def value_and_grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False):
    """A function returning ``(fn's value, gradients)``: the gradients of ``fn``'s output
    (summed where it is not a scalar: MindSpore's all-ones sensitivity; with ``has_aux``
    of the first item of the tuple ``fn`` returns) w.r.t. the inputs at ``grad_position``
    (an int or a tuple; a 1-tuple gives its gradient alone, as an int does) and/or
    ``weights``. ``return_ids`` pairs each gradient with its position or parameter name
    (see :func:`get_grad`)."""
    g = _ones_sens_value_and_grad(fn, grad_position, weights, has_aux)

    def run(*args, **kwargs):
        value, grads = g(*args, **kwargs)
        if return_ids:
            grads = _with_ids(grads, grad_position, weights)
        return value, _one_position_unwrapped(grads, grad_position, weights)
    return functools.wraps(fn, updated=())(run)


def grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False):
    """A function giving the gradients of ``fn`` (see :func:`value_and_grad`); with
    ``has_aux`` it returns ``(gradients, aux)``, ``aux`` a tuple."""
    vg = value_and_grad(fn, grad_position, weights, has_aux, return_ids)

    @functools.wraps(fn, updated=())  # fn may be a Cell: no __dict__ copy
    def run(*args, **kwargs):
        value, grads = vg(*args, **kwargs)
        return (grads, tuple(value[1:])) if has_aux else grads
    return run


def get_grad(gradients, identifier):
    """The gradient for ``identifier`` (an input position or a Parameter) from the output
    of a ``grad(..., return_ids=True)`` function."""
    key = identifier.name if isinstance(identifier, sx.Parameter) else identifier

    def search(node):
        if not isinstance(node, tuple):
            return None
        if len(node) == 2 and isinstance(node[0], (int, str)) and node[0] == key:
            return node[1]
        for item in node:
            found = search(item)
            if found is not None:
                return found
        return None

    found = search(gradients)
    if found is None:
        raise SporelingError("no gradient for this identifier", op="ops.get_grad",
                             expected="an input position or Parameter passed to grad "
                                      "(return_ids=True)", got=repr(key))
    return found


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def vjp(fn, *inputs, weights=None, has_aux=False):
    """``(outputs, vjp_fn)``: ``vjp_fn(v)`` is the tuple of gradients of
    ``<fn(*inputs), v>`` w.r.t. every input (``v`` shaped like the outputs; a tuple for
    tuple outputs); with ``weights`` (Parameters) it is ``(input_grads, weight_grads)``.
    With ``has_aux``, ``fn`` returns ``(out, aux)`` and the result is
    ``(out, vjp_fn, aux)``."""
    inputs = tuple(tensor(x) for x in inputs)
    full = fn(*inputs)
    outputs, aux = (full[0], full[1:]) if has_aux else (full, None)
    target = (lambda *a: fn(*a)[0]) if has_aux else fn
    positions = tuple(range(len(inputs)))

    def vjp_fn(*v):
        cot = v[0] if len(v) == 1 else v
        grads = sx.grad(target, positions, weights, sens_param=True)(*inputs, cot)
        if weights is None:
            return tuple(grads)
        return tuple(grads[0]), grads[1]

    if has_aux:
        return outputs, vjp_fn, (aux[0] if len(aux) == 1 else aux)
    return outputs, vjp_fn


def jvp(fn, inputs, v, has_aux=False):
    """``(outputs, J v)``: ``fn``'s outputs at ``inputs`` and their derivative along the
    tangents ``v`` (one per input, same shapes). With ``has_aux``: ``(outputs, J v, aux)``."""
    primals = tuple(tensor(x) for x in _as_tuple(inputs))
    tangents = tuple(tensor(t) for t in _as_tuple(v))
    if len(primals) != len(tangents):
        raise SporelingError("one tangent per input", op="ops.jvp",
                             expected=f"{len(primals)} tangents", got=len(tangents))
    full = fn(*primals)
    outputs, aux = (full[0], full[1:]) if has_aux else (full, None)
    target = (lambda *a: fn(*a)[0]) if has_aux else fn
    outs = _as_tuple(outputs)
    if not all(hasattr(o, "shape") for o in outs):
        raise ArgumentError("fn must return tensors", op="ops.jvp", expected="Tensor outputs",
                            got=", ".join(type(o).__name__ for o in outs))
    positions = tuple(range(len(primals)))

    def pulled_along_v(*cts):  # <vjp(ct), v>: linear in ct, its gradient in ct is J v
        cot = cts[0] if len(cts) == 1 else cts
        grads = sx.grad(target, positions, sens_param=True)(*primals, cot)
        total = 0.0
        for g, t in zip(_as_tuple(grads), tangents):
            total = ops.add(total, ops.sum(ops.mul(g, t)))
        return total

    zeros = [Tensor(np.zeros(tuple(o.shape), np.dtype(o.dtype))) for o in outs]
    tangent_out = sx.grad(pulled_along_v, tuple(range(len(zeros))))(*zeros)
    tangent_out = tuple(tangent_out) if isinstance(outputs, (tuple, list)) else tangent_out[0]
    if has_aux:
        return outputs, tangent_out, (aux[0] if len(aux) == 1 else aux)
    return outputs, tangent_out


def _basis(shape, dtype, k):
    e = np.zeros(int(np.prod(shape, dtype=np.int64)), dtype)
    e[k] = 1
    return Tensor(e.reshape(shape))


def jacrev(fn, grad_position=0, has_aux=False):
    """A function giving the Jacobian of ``fn``'s (single tensor) output w.r.t. the inputs
    at ``grad_position``, shape ``out.shape + input.shape``, one VJP per output element.
    With ``has_aux``: ``(jacobian, aux)``."""
    def jac(*args):
        args = tuple(tensor(a) for a in args)
        full = fn(*args)
        out, aux = (full[0], full[1:]) if has_aux else (full, None)
        target = (lambda *a: fn(*a)[0]) if has_aux else fn
        pos = _positions(grad_position)
        g = sx.grad(target, pos, sens_param=True)
        rows = [g(*args, _basis(tuple(out.shape), np.dtype(out.dtype), k))
                for k in range(int(np.prod(out.shape, dtype=np.int64)))]
        jacs = tuple(result(ops.reshape(ops.stack([r[i] for r in rows]),
                                        tuple(out.shape) + tuple(args[p].shape)))
                     for i, p in enumerate(pos))
        jacobian = jacs[0] if isinstance(grad_position, int) else jacs
        return (jacobian, aux[0] if len(aux) == 1 else aux) if has_aux else jacobian
    return jac


def jacfwd(fn, grad_position=0, has_aux=False):
    """A function giving the Jacobian of ``fn``'s (single tensor) output w.r.t. the inputs
    at ``grad_position``, shape ``out.shape + input.shape``, one JVP per input element.
    With ``has_aux``: ``(jacobian, aux)``."""
    def jac(*args):
        args = tuple(tensor(a) for a in args)
        target = (lambda *a: fn(*a)[0]) if has_aux else fn
        jacs = []
        out = None
        for p in _positions(grad_position):
            columns = []
            for k in range(int(np.prod(args[p].shape, dtype=np.int64))):
                tangents = [Tensor(np.zeros(tuple(a.shape), np.dtype(a.dtype))) for a in args]
                tangents[p] = _basis(tuple(args[p].shape), np.dtype(args[p].dtype), k)
                out, col = jvp(target, args, tuple(tangents))
                columns.append(col)
            stacked = ops.stack(columns, axis=-1)
            jacs.append(result(ops.reshape(stacked, tuple(out.shape) + tuple(args[p].shape))))
        jacobian = jacs[0] if isinstance(grad_position, int) else tuple(jacs)
        if has_aux:
            aux = fn(*args)[1:]
            return jacobian, (aux[0] if len(aux) == 1 else aux)
        return jacobian
    return jac


def vmap(fn, in_axes=0, out_axes=0):
    """``fn`` mapped over axis ``in_axes`` of its arguments, results stacked on
    ``out_axes`` (an int, None for an unmapped argument, or a tuple per argument). Inside
    ``fn`` use ``ops`` functions: the mapped values are batch tracers, not Tensors, so Python
    operators (``a * b``) and ``asnumpy()`` are not available on them."""
    mapped = _vmap(fn, in_axes, out_axes)

    def run(*args):
        out = mapped(*(tensor(a) for a in args))
        return result(tuple(out)) if isinstance(out, (tuple, list)) else result(out)
    run.__name__ = getattr(mapped, "__name__", "vmap")
    return run
