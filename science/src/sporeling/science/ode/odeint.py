"""``odeint(func, y0, t, method=..., rtol=..., atol=..., max_steps=...)``: the solution of
``dy/dt = func(t, y)`` at the times ``t``, as in torchdiffeq.

``y0`` may be a NumPy array or a Tensor. On Tensors every step is an op, so under ``grad``
the gradient flows back through the solver's steps (step sizes are chosen from values and
count as constants, as in torchdiffeq); :func:`~.adjoint.odeint_adjoint` gets the same
gradients in memory that does not grow with the number of steps.
"""
from __future__ import annotations

import math

import numpy as np

from sporeling.compiler.core.location import locate
from sporeling.expression import no_grad

from .errors import ODEError, StepBudgetError, ToleranceError
from .steps import as_numpy, dopri5_step, error_ratio, initial_step, rk4_step

__all__ = ["odeint", "METHODS"]

METHODS = ("dopri5", "rk4")
_SAFETY, _MIN_FACTOR, _MAX_FACTOR = 0.9, 0.2, 10.0


def odeint(func, y0, t, method: str = "dopri5", rtol: float = 1e-7, atol: float = 1e-9,
           max_steps: int = 10_000, step_size: float | None = None, first_step=None):
    """``y`` at each time of ``t`` (``y[0] = y0``), stacked on a new first axis.

    * ``func(t, y)``: ``t`` a Python float, ``y`` shaped like ``y0``; returns ``dy/dt``.
    * ``t``: strictly increasing or strictly decreasing output times (1-d).
    * ``method="dopri5"``: adaptive Dormand-Prince 5(4) with error control -- a step is
      accepted when the RMS of ``error / (atol + rtol * |y|)`` is at most 1; it steps onto
      every output time (no interpolation). ``method="rk4"``: classical RK4 with one step
      per interval of ``t``, or steps of at most ``step_size``.
    * ``max_steps``: the budget of steps (rejected ones count) over the whole span;
      exhausting it -- a stiff problem for these explicit methods -- raises
      :class:`~.errors.StepBudgetError` saying how far it got.
    """
    ts = _check_times(t)
    method = _check_method(method)
    rtol, atol = _check_tolerance("rtol", rtol), _check_tolerance("atol", atol)
    max_steps = _check_budget(max_steps)
    if method == "rk4":
        ys = _rk4(func, y0, ts, step_size, max_steps)
    else:
        ys = _dopri5(func, y0, ts, rtol, atol, max_steps, first_step)
    return _stack(ys)


def _stack(ys):
    if hasattr(ys[0], "asnumpy"):
        from sporeling.expression import ops
        return ops.stack(list(ys))
    return np.stack([np.asarray(y) for y in ys])


def _rk4(func, y, ts, step_size, max_steps):
    counts = [1 if step_size is None else max(1, math.ceil(abs(b - a) / step_size - 1e-9))
              for a, b in zip(ts, ts[1:])]
    if sum(counts) > max_steps:
        raise locate(StepBudgetError(
            "rk4 needs more steps than the budget", op="odeint(rk4)",
            expected=f"at most max_steps={max_steps} steps",
            got=f"{sum(counts)} steps of size {step_size} over [{ts[0]}, {ts[-1]}]",
            hint="raise max_steps or step_size"))
    ys = [y]
    for (a, b), n in zip(zip(ts, ts[1:]), counts):
        h = (b - a) / n
        for i in range(n):
            y = rk4_step(func, a + i * h, y, h)
        ys.append(y)
    return ys


def _dopri5(func, y, ts, rtol, atol, max_steps, first_step):
    direction = 1.0 if ts[-1] > ts[0] else -1.0
    t = ts[0]
    k1 = func(t, y)
    if first_step is None:
        with no_grad():  # a probe of the dynamics, not part of the solution
            h = initial_step(func, t, y, k1, direction, rtol, atol)
    else:
        h = abs(float(first_step))
    ys, steps = [y], 0
    for target in ts[1:]:
        while (target - t) * direction > 0:
            if steps >= max_steps:
                raise locate(_budget_error(max_steps, t, ts, h, "max_steps"))
            span = abs(target - t)
            last = h >= span * (1 - 1e-12)
            step = span if last else h
            if step <= 1e-14 * max(1.0, abs(t)):  # rejected down to round-off
                raise locate(_budget_error(max_steps, t, ts, step, "underflow"))
            y_new, err, k_new = dopri5_step(func, t, y, step * direction, k1)
            steps += 1
            ratio = error_ratio(err, y, y_new, rtol, atol)
            if not np.isfinite(ratio):
                h = step * _MIN_FACTOR
                continue
            if ratio <= 1.0:
                t = target if last else t + step * direction
                y, k1 = y_new, k_new
                factor = _MAX_FACTOR if ratio == 0 else min(
                    _MAX_FACTOR, max(_MIN_FACTOR, _SAFETY * ratio ** -0.2))
                h = max(h, step) * factor if not last else max(h, step * factor)
            else:
                h = step * max(_MIN_FACTOR, _SAFETY * ratio ** -0.2)
        ys.append(y)
    return ys


def _budget_error(max_steps, t, ts, h, why):
    if why == "underflow":
        detail = "the step size fell to round-off before reaching the end"
        got = f"step size {h:.3g} at t = {t:.6g}"
    else:
        detail = "dopri5 used its whole step budget before reaching the end"
        got = f"t = {t:.6g} after max_steps={max_steps} steps (step size {h:.3g})"
    return StepBudgetError(detail, op="odeint(dopri5)",
                           expected=f"to reach t = {ts[-1]:.6g} from t = {ts[0]:.6g}",
                           got=got,
                           hint="the problem is probably stiff: explicit methods need tiny "
                                "steps there; raise max_steps, loosen rtol/atol, or use an "
                                "implicit solver (scipy.integrate.solve_ivp method='Radau')")


def _check_times(t) -> list[float]:
    ts = as_numpy(t)
    if ts.ndim != 1 or ts.size < 2 or not np.all(np.isfinite(ts)):
        raise locate(ODEError("bad output times", op="odeint",
                              expected="a 1-d array of at least 2 finite times",
                              got=f"shape {ts.shape}" + ("" if np.all(np.isfinite(ts))
                                                          else " with non-finite values")))
    d = np.diff(ts.astype(np.float64))
    if not (np.all(d > 0) or np.all(d < 0)):
        raise locate(ODEError("output times are not monotonic", op="odeint",
                              expected="strictly increasing or strictly decreasing times",
                              got=np.array2string(ts, threshold=8)))
    return [float(v) for v in ts]


def _check_method(method) -> str:
    if method not in METHODS:
        raise locate(ODEError("unknown method", op="odeint",
                              expected=f"one of {', '.join(METHODS)}", got=repr(method)))
    return method


def _check_tolerance(name, value):
    v = as_numpy(value).astype(np.float64)
    if v.size == 0 or not np.all(np.isfinite(v)) or np.any(v <= 0):
        raise locate(ToleranceError(f"{name} must be positive", op="odeint",
                                    expected=f"{name} > 0 and finite (a number, or one "
                                             "per component)",
                                    got=f"{name}={value!r}"))
    if name == "rtol" and np.any(v < 100 * np.finfo(np.float64).eps):
        raise locate(ToleranceError("rtol is below what float64 can resolve", op="odeint",
                                    expected=f"rtol >= {100 * np.finfo(np.float64).eps:.3g}",
                                    got=f"rtol={value!r}"))
    return v if v.ndim else float(v)


def _check_budget(max_steps) -> int:
    if isinstance(max_steps, bool) or not isinstance(max_steps, (int, np.integer)) \
            or max_steps < 1:
        raise locate(ODEError("max_steps must be a positive integer", op="odeint",
                              expected="an int >= 1", got=repr(max_steps)))
    return int(max_steps)
