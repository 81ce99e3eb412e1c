"""NumPy/SciPy kernels of this plugin's primitives (:mod:`.special`, :mod:`.sampling`,
:mod:`.incomplete`).
Special functions compute in float64 and are stored in the operand's dtype."""
from __future__ import annotations

import numpy as np

from sporeling.runtime.kernels.random import rng
from sporeling.runtime.kernels.table import output

__all__ = ["KERNELS", "add_kernels"]


class _Special:
    """``scipy.special``, imported at its first use: importing it takes ~0.35 s, which
    every process paid at its first compiled call (when the kernel tables are collected)
    whether or not a program used this plugin."""

    def __getattr__(self, name):
        from scipy import special
        return getattr(special, name)


sc = _Special()


def _lazy(name: str):
    """``scipy.special.<name>``, looked up when called."""
    return lambda *args, **kwargs: getattr(sc, name)(*args, **kwargs)


def _unary(fn):
    def kernel(backend, x, out=None, **params):
        result = output(backend, out, np.shape(x), np.asarray(x).dtype)
        np.copyto(result, fn(np.asarray(x, np.float64), **params), casting="unsafe")
        return result
    return kernel


def _polygamma(x, *, n):
    return sc.polygamma(n, x)


def _k_random_gamma(backend, alpha, seed, out=None):
    a = np.asarray(alpha)
    result = output(backend, out, a.shape, a.dtype)
    sample = rng(seed).standard_gamma(a.astype(np.float64))
    # float32 can round a tiny sample to 0 (log_prob -inf): keep it the smallest normal
    np.copyto(result, np.maximum(sample, np.finfo(a.dtype).tiny), casting="unsafe")
    return result


def _k_random_poisson(backend, rate, seed, out=None):
    r = np.asarray(rate)
    result = output(backend, out, r.shape, r.dtype)
    np.copyto(result, rng(seed).poisson(r.astype(np.float64)), casting="unsafe")
    return result


def gamma_sample_grad(z, alpha):
    """``dz/dalpha`` of a standard Gamma sample ``z`` at fixed CDF value (float64 arrays):
    ``-(dF/dalpha)(z; alpha) / p(z; alpha)``, ``dF/dalpha`` by a central difference."""
    z, alpha = np.broadcast_arrays(np.asarray(z, np.float64), np.asarray(alpha, np.float64))
    dcdf = _central(lambda a, x: sc.gammainc(a, x), (alpha, z), 0)
    log_pdf = (alpha - 1) * np.log(z) - z - sc.gammaln(alpha)
    return -dcdf * np.exp(-log_pdf)


def _k_random_gamma_grad(backend, z, alpha, out=None):
    result = output(backend, out, np.shape(z), np.asarray(z).dtype)
    np.copyto(result, gamma_sample_grad(z, alpha), casting="unsafe")
    return result


def _central(fn, args, i):
    """d fn / d args[i] by a central difference (float64), a step inside the domain."""
    args = [np.asarray(v, np.float64) for v in np.broadcast_arrays(*args)]
    h = np.minimum(1e-5 * np.maximum(args[i], 1.0), 0.5 * args[i])
    up, down = list(args), list(args)
    up[i], down[i] = args[i] + h, args[i] - h
    return (fn(*up) - fn(*down)) / (2 * h)


def _elementwise(fn):
    def kernel(backend, *xs, out=None, **params):
        result = output(backend, out, np.shape(xs[0]), np.asarray(xs[0]).dtype)
        np.copyto(result, fn(*(np.asarray(x, np.float64) for x in xs), **params),
                  casting="unsafe")
        return result
    return kernel


KERNELS = {"probability_lgamma": _unary(_lazy("gammaln")),
           "probability_digamma": _unary(_lazy("digamma")),
           "probability_polygamma": _unary(_polygamma),
           "probability_random_gamma": _k_random_gamma,
           "probability_random_gamma_grad": _k_random_gamma_grad,
           "probability_random_poisson": _k_random_poisson,
           "probability_gammainc": _elementwise(_lazy("gammainc")),
           "probability_gammainc_da": _elementwise(
               lambda a, x: _central(sc.gammainc, (a, x), 0)),
           "probability_betainc": _elementwise(_lazy("betainc")),
           "probability_betainc_dab": _elementwise(
               lambda a, b, x, *, wrt: _central(sc.betainc, (a, b, x), wrt))}


def add_kernels(kernels) -> None:
    """This plugin's kernels for the NumPy backend (called by the plugin)."""
    from sporeling.runtime.numpy_backend import NumpyBackend
    for name, fn in KERNELS.items():
        kernels.add_kernel(NumpyBackend.name, name, fn)
