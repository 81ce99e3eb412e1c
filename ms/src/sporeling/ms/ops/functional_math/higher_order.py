"""Higher-order forward-mode functions of 2.10's ``mindspore.ops``: ``derivative`` (n-th
derivatives along unit tangents), ``jet`` (Taylor-mode propagation of a truncated series)
and ``linearize`` (outputs and the reusable JVP). All are nested :func:`jvp` calls: the
input is moved along a curve ``x(t)`` and the output is differentiated in the scalar ``t``
``n`` times, so the gradients come from the same ``sx`` ops as everything else."""
from __future__ import annotations

import math

import numpy as np

from ._util import SporelingError, Tensor, float_of, ops, tensor
from .differential import _as_tuple, jvp

__all__ = ["derivative", "jet", "linearize"]


_MAX_ORDER = 16  # nested jvp costs grow geometrically with the order


def _check_order(op, order):
    if not isinstance(order, (int, np.integer)) or isinstance(order, bool) or \
            not 1 <= order <= _MAX_ORDER:
        raise SporelingError("order must be a positive int", op=op,
                             expected=f"an int in [1, {_MAX_ORDER}] (each order nests "
                                      "another jvp)", got=repr(order))
    return int(order)


def _t_derivatives(h, n):
    """``(h(0), [h'(0), ..., h^(n)(0)])`` of a function of a scalar ``t``, by nested jvp."""
    t0 = Tensor(np.zeros((), np.float32))
    one = Tensor(np.ones((), np.float32))

    def nth(k):
        if k == 0:
            return h
        inner = nth(k - 1)
        return lambda t: jvp(inner, (t,), (one,))[1]
    return h(t0), [nth(k)(t0) for k in range(1, n + 1)]


def _curve(primals, series):
    """``x(t) = x0 + sum_k series[k] t^(k+1) / (k+1)!`` for each input."""
    def at(t):
        points = []
        for x0, coefficients in zip(primals, series):
            x = x0
            for k, c in enumerate(coefficients):
                x = ops.add(x, ops.mul(c, ops.div(ops.pow(t, float(k + 1)),
                                                  float(math.factorial(k + 1)))))
            points.append(x)
        return points
    return at


def derivative(fn, primals, order):
    """``(fn(primals), the order-th derivative)``: the first-order tangent of every input is
    1 and the higher ones 0 (so an element-wise ``fn`` gets its element-wise n-th
    derivative). Integer inputs are computed in float32."""
    order = _check_order("ops.derivative", order)
    xs = [float_of(x) for x in _as_tuple(primals)]
    h = _curve(xs, [[Tensor(np.ones(tuple(x.shape), x.dtype))] for x in xs])
    out, ders = _t_derivatives(lambda t: fn(*h(t)), order)
    return out, ders[-1]


def jet(fn, primals, series):
    """Taylor-mode propagation: ``primals`` (a Tensor or a tuple) moves along a curve whose
    first ``n`` derivatives are ``series`` (one Tensor per input, its first axis the orders
    1..n); the result is ``(fn(primals), the first n derivatives of fn along the curve)``,
    the latter stacked on a new first axis."""
    single = not isinstance(primals, (tuple, list))
    xs = [float_of(x) for x in _as_tuple(primals)]
    ss = list(_as_tuple(series)) if not single else [series]
    if len(ss) != len(xs) or not all(isinstance(s, Tensor) and s.ndim >= 1 for s in ss):
        raise SporelingError("needs one series tensor per input", op="ops.jet",
                             expected=f"{len(xs)} Tensor(s) of shape (n, *input.shape)",
                             got=repr(series)[:80])
    n = _check_order("ops.jet", int(ss[0].shape[0]))
    coefficients = [[ops.getitem(s, k) for k in range(n)] for s in ss]
    h = _curve(xs, coefficients)
    out, ders = _t_derivatives(lambda t: fn(*h(t)), n)
    return out, ops.stack(ders, axis=0)


def linearize(fn, inputs):
    """``(fn(inputs), jvp_fn)``: ``jvp_fn(tangents)`` (one per input, a tuple for several)
    is ``fn``'s derivative at ``inputs`` along them."""
    primals = _as_tuple(inputs)
    out = fn(*(tensor(x) for x in primals))

    def jvp_fn(*tangents):
        v = tangents[0] if len(tangents) == 1 else tangents
        return jvp(fn, primals, v)[1]
    return out, jvp_fn
