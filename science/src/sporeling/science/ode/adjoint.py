"""``odeint_adjoint``: ``odeint`` whose gradient comes from the adjoint method (Chen et al.,
*Neural Ordinary Differential Equations*, 2018), not from recording the solver's steps.

The forward solve runs unrecorded and keeps only the outputs at the times ``t``. Backward
integrates the augmented state ``(y, a, a_p)`` from the last time to the first::

    dy/dt = f(t, y)      da/dt = -a . df/dy      da_p/dt = -a . df/dp

with ``a = dL/dy`` (each output's cotangent added when the sweep passes its time, and ``y``
reset to the stored output there), so ``a`` ends as ``dL/dy0`` and ``a_p`` as ``dL/dp``.
Each right-hand side evaluation takes one vector-Jacobian product of ``f`` (a short-lived
record, freed at once), so memory does not grow with the number of steps. The same method
and tolerances serve both sweeps.
"""
from __future__ import annotations

import numpy as np

from sporeling.expression import Tensor, call_with_bprop, no_grad, value_and_grad

from sporeling.compiler.core.location import locate

from .errors import ODEError
from .odeint import odeint
from .steps import as_numpy

__all__ = ["odeint_adjoint"]


def odeint_adjoint(func, y0, t, params=None, **options):
    """``odeint(func, y0, t, **options)`` differentiated by the adjoint method.

    ``params``: the Parameters ``func`` uses that should get gradients; by default
    ``func.trainable_params()`` when ``func`` is a Cell (called as ``func(t, y)``); a plain
    function must list them (``params=[]``: gradients reach ``y0`` only) -- the forward
    runs unrecorded, so parameters not listed would silently get no gradient. No gradient
    flows to ``t``. One level of ``grad`` (no grad of grad).
    """
    if params is None:
        if not hasattr(func, "trainable_params"):
            raise locate(ODEError(
                "odeint_adjoint cannot see the parameters of a plain function",
                op="odeint_adjoint", expected="func a Cell, or params=[...] (params=[] for "
                                              "none)", got=type(func).__name__))
        params = func.trainable_params()
    params = list(params)
    y0 = y0 if isinstance(y0, Tensor) else Tensor(np.asarray(y0))

    def forward(y_start, *_params):
        with no_grad():
            return odeint(func, y_start, t, **options)

    def bprop(y_start, *rest):
        *_ps, out, dout = rest
        grads = _adjoint_sweep(func, out, dout, t, params, options)
        return tuple(Tensor(g) for g in grads)

    return call_with_bprop(forward, bprop, y0, *params)


def _adjoint_sweep(func, ys, dys, t, params, options):
    """``(dL/dy0, dL/dp...)`` as NumPy arrays, from the stored outputs ``ys`` and their
    cotangents ``dys``."""
    ts = [float(v) for v in as_numpy(t)]
    ys, dys = as_numpy(ys), as_numpy(dys)
    shape, dtype = ys.shape[1:], ys.dtype
    sizes = [int(np.prod(shape))] * 2 + [int(np.prod(p.shape)) for p in params]
    bounds = np.cumsum(sizes)[:-1]

    def unpack(state):
        return np.split(state, bounds)

    vjp = _vjp_of(func, params)

    def augmented(time, state):
        y, a = unpack(state)[:2]
        fy, gy, gps = vjp(time, y.reshape(shape), a.reshape(shape))
        return np.concatenate([fy.ravel(), -gy.ravel()] + [-g.ravel() for g in gps])

    a = dys[-1].astype(dtype).ravel()
    a_p = [np.zeros(n, dtype) for n in sizes[2:]]
    for i in range(len(ts) - 1, 0, -1):
        state = np.concatenate([ys[i].ravel(), a] + a_p)
        state = odeint(augmented, state, [ts[i], ts[i - 1]], **options)[-1]
        _, a, *a_p = unpack(state)
        a = a + dys[i - 1].ravel()
    return [a.reshape(shape)] + [g.reshape(p.shape) for g, p in zip(a_p, params)]


def _vjp_of(func, params):
    """``vjp(t, y, a) -> (f(t, y), a . df/dy, [a . df/dp])`` on NumPy arrays."""
    def f_of_y(y, time):
        return func(time, y)

    if params:
        vg = value_and_grad(f_of_y, 0, params, sens_param=True)
    else:
        vg = value_and_grad(f_of_y, 0, sens_param=True)

    def vjp(time, y, a):
        value, grads = vg(Tensor(y), time, Tensor(a))
        gy, gps = (grads if params else (grads, ()))
        if isinstance(gps, Tensor):
            gps = (gps,)
        if len(gps) != len(params):
            raise ODEError("the adjoint got the wrong number of parameter gradients",
                           op="odeint_adjoint", expected=len(params), got=len(gps))
        return as_numpy(value), as_numpy(gy), [as_numpy(g) for g in gps]

    return vjp
