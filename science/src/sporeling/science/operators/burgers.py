"""Burgers' equation data for neural operators, from a pseudo-spectral solver.

``u_t + (u^2 / 2)_x = nu * u_xx`` on the periodic interval [0, 1). Time stepping is ETDRK4
(Cox & Matthews 2002, with Kassam & Trefethen's contour-integral coefficients, 2005): the
stiff diffusion is integrated exactly, the nonlinear term to fourth order; the nonlinear
term is dealiased by the 2/3 rule. Initial conditions are Gaussian random fields
``N(0, 625 (-Laplacian + 25 I)^-2)`` as in Li et al.'s FNO benchmark (2021).

    >>> import numpy as np
    >>> u0 = random_initial_conditions(2, 64, np.random.default_rng(0))
    >>> solve_burgers(u0, t_final=0.5, nu=0.1).shape
    (2, 64)
"""
from __future__ import annotations

import numpy as np

from sporeling.core.errors import ShapeError, SporelingError

__all__ = ["random_initial_conditions", "solve_burgers", "burgers_dataset"]


def _wavenumbers(n: int) -> np.ndarray:
    return 2 * np.pi * np.fft.rfftfreq(n, d=1.0 / n)


def random_initial_conditions(num: int, n: int, rng: np.random.Generator,
                              scale: float = 25.0, shift: float = 25.0) -> np.ndarray:
    """``num`` real periodic fields on ``n`` points with Fourier amplitudes
    ``scale / (4 pi^2 k^2 + shift)`` (zero mean)."""
    k = _wavenumbers(n)
    std = scale / (k ** 2 + shift)
    std[0] = 0.0
    coef = (rng.standard_normal((num, k.size)) + 1j * rng.standard_normal((num, k.size)))
    coef *= std * n / np.sqrt(2)
    if n % 2 == 0:
        coef[:, -1] = coef[:, -1].real * np.sqrt(2)  # the Nyquist mode is real
    return np.fft.irfft(coef, n=n, axis=-1)


def _etdrk4_coefficients(lin: np.ndarray, dt: float, contour_points: int = 32):
    """phi-function coefficients of ETDRK4 for the diagonal linear operator ``lin``,
    evaluated by averaging over a circle in the complex plane (no cancellation at 0)."""
    r = np.exp(1j * np.pi * (np.arange(1, contour_points + 1) - 0.5) / contour_points)
    lr = dt * lin[:, None] + r[None, :]
    q = dt * np.real(np.mean((np.exp(lr / 2) - 1) / lr, axis=1))
    f1 = dt * np.real(np.mean((-4 - lr + np.exp(lr) * (4 - 3 * lr + lr ** 2)) / lr ** 3, axis=1))
    f2 = dt * np.real(np.mean((2 + lr + np.exp(lr) * (-2 + lr)) / lr ** 3, axis=1))
    f3 = dt * np.real(np.mean((-4 - 3 * lr - lr ** 2 + np.exp(lr) * (4 - lr)) / lr ** 3,
                              axis=1))
    return np.exp(dt * lin), np.exp(dt * lin / 2), q, f1, f2, f3


def solve_burgers(u0, t_final: float = 1.0, nu: float = 0.1, dt: float = 1e-3,
                  save_at=None) -> np.ndarray:
    """``u(t_final)`` for initial conditions ``u0`` of shape ``(..., n)`` (float64); with
    ``save_at`` (times), ``u`` at each of them on a new axis after the batch axes."""
    u0 = np.asarray(u0, np.float64)
    if u0.ndim < 1 or u0.shape[-1] < 4:
        raise ShapeError("initial conditions need a grid along the last axis",
                         op="solve_burgers", expected="shape (..., n) with n >= 4",
                         got=f"shape {u0.shape}")
    if not (nu > 0 and dt > 0 and t_final >= 0):
        raise SporelingError("bad solver parameters", op="solve_burgers",
                             expected="nu > 0, dt > 0, t_final >= 0",
                             got=f"nu={nu}, dt={dt}, t_final={t_final}")
    n = u0.shape[-1]
    k = _wavenumbers(n)
    dealias = np.abs(np.fft.rfftfreq(n, d=1.0 / n)) < n / 3  # the 2/3 rule
    nonlinear_factor = -0.5j * k * dealias

    def nonlinear(v):  # the spectrum of -(u^2/2)_x, dealiased
        u = np.fft.irfft(v * dealias, n=n, axis=-1)
        return nonlinear_factor * np.fft.rfft(u * u, axis=-1)

    times = [t_final] if save_at is None else [float(s) for s in save_at]
    v = np.fft.rfft(u0, axis=-1)
    t, out = 0.0, []
    for target in times:
        steps = int(np.ceil((target - t) / dt - 1e-9))
        if steps > 0:
            h = (target - t) / steps
            e, e2, q, f1, f2, f3 = _etdrk4_coefficients(-nu * k ** 2, h)
            for _ in range(steps):
                nv = nonlinear(v)
                a = e2 * v + q * nv
                na = nonlinear(a)
                b = e2 * v + q * na
                nb = nonlinear(b)
                c = e2 * a + q * (2 * nb - nv)
                nc = nonlinear(c)
                v = e * v + f1 * nv + 2 * f2 * (na + nb) + f3 * nc
            t = target
        out.append(np.fft.irfft(v, n=n, axis=-1))
    return out[0] if save_at is None else np.stack(out, axis=-2)


def burgers_dataset(num: int, n: int = 128, *, nu: float = 0.1, t_final: float = 1.0,
                    seed: int = 0, solver_points: int | None = None, dt: float = 1e-3):
    """``(u0, u(t_final))``, each ``(num, n)`` float32: random initial conditions and their
    solutions, solved on ``solver_points`` (default ``2 n``) and subsampled to ``n``."""
    fine = solver_points or 2 * n
    if fine % n:
        raise ShapeError("the solver grid must be a multiple of the data grid",
                         op="burgers_dataset", expected=f"solver_points divisible by {n}",
                         got=f"solver_points={fine}")
    u0 = random_initial_conditions(num, fine, np.random.default_rng(seed))
    u1 = solve_burgers(u0, t_final=t_final, nu=nu, dt=dt)
    step = fine // n
    return u0[:, ::step].astype(np.float32), u1[:, ::step].astype(np.float32)
