"""One step of each method, written with ``+``/``*`` only so that it runs on NumPy arrays
and on Tensors alike (on Tensors under ``grad`` the step is recorded: backpropagation
through the solver). Step-size control reads values as NumPy (:func:`error_ratio`)."""
from __future__ import annotations

import numpy as np

__all__ = ["rk4_step", "dopri5_step", "error_ratio", "as_numpy", "initial_step"]

# Dormand & Prince (1980), RK5(4)7FM: the 5th-order solution is propagated, the 4th-order
# one estimates the error; the last stage is the next step's first (FSAL).
_C = (0.0, 1 / 5, 3 / 10, 4 / 5, 8 / 9, 1.0, 1.0)
_A = ((),
      (1 / 5,),
      (3 / 40, 9 / 40),
      (44 / 45, -56 / 15, 32 / 9),
      (19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729),
      (9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656),
      (35 / 384, 0.0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84))
_B5 = (35 / 384, 0.0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0.0)
_B4 = (5179 / 57600, 0.0, 7571 / 16695, 393 / 640, -92097 / 339200, 187 / 2100, 1 / 40)
_E = tuple(b5 - b4 for b5, b4 in zip(_B5, _B4))


def as_numpy(v) -> np.ndarray:
    """The value of an array or Tensor as NumPy (read only, never recorded)."""
    return v.asnumpy() if hasattr(v, "asnumpy") else np.asarray(v)


def _combine(y, h, coefs, ks):
    out = y
    for c, k in zip(coefs, ks):
        if c:
            out = out + k * (h * c)
    return out


def rk4_step(f, t, y, h):
    """The classical fourth-order Runge-Kutta step from ``(t, y)`` of size ``h``."""
    k1 = f(t, y)
    k2 = f(t + h / 2, y + k1 * (h / 2))
    k3 = f(t + h / 2, y + k2 * (h / 2))
    k4 = f(t + h, y + k3 * h)
    return y + (k1 + k2 * 2.0 + k3 * 2.0 + k4) * (h / 6)


def dopri5_step(f, t, y, h, k1):
    """A Dormand-Prince step: ``(y_new, error_estimate, f(t + h, y_new))``; ``k1`` is
    ``f(t, y)`` (the previous step's last stage)."""
    ks = [k1]
    for i in range(1, 6):
        ks.append(f(t + _C[i] * h, _combine(y, h, _A[i], ks)))
    y_new = _combine(y, h, _B5, ks)
    k7 = f(t + h, y_new)
    ks.append(k7)
    err = sum(as_numpy(k) * (h * e) for e, k in zip(_E, ks) if e)
    return y_new, err, k7


def error_ratio(err, y0, y1, rtol, atol) -> float:
    """RMS of the error over ``atol + rtol * max(|y0|, |y1|)``: a step is accepted at <= 1
    (Hairer, Norsett & Wanner's norm, as scipy's ``solve_ivp`` uses)."""
    scale = atol + rtol * np.maximum(np.abs(as_numpy(y0)), np.abs(as_numpy(y1)))
    return float(np.sqrt(np.mean(np.square(err / scale)))) if np.size(scale) else 0.0


def _rms(v) -> float:
    return float(np.sqrt(np.mean(np.square(v)))) if np.size(v) else 0.0


def initial_step(f, t0, y0, f0, direction, rtol, atol, order=4) -> float:
    """A first step size (Hairer, Norsett & Wanner, II.4; scipy's ``select_initial_step``)."""
    y, d = as_numpy(y0), as_numpy(f0)
    scale = atol + np.abs(y) * rtol
    d0, d1 = _rms(y / scale), _rms(d / scale)
    h0 = 1e-6 if d0 < 1e-5 or d1 < 1e-5 else 0.01 * d0 / d1
    y1 = y + h0 * direction * d
    f1 = as_numpy(f(t0 + h0 * direction, y1))
    d2 = _rms((f1 - d) / scale) / h0
    if d1 <= 1e-15 and d2 <= 1e-15:
        h1 = max(1e-6, h0 * 1e-3)
    else:
        h1 = (0.01 / max(d1, d2)) ** (1 / (order + 1))
    return min(100 * h0, h1)
