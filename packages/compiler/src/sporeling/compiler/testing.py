"""Checks for primitive, plugin and backend authors: gradients by finite differences in
float64 (:func:`check_grads`), and a backend with the core set's kernels only
(:func:`core_only_backend`: does a model run where only the core set is implemented?).

    >>> import numpy as np
    >>> from sporeling.compiler import ops
    >>> check_grads(lambda x, y: ops.mul(ops.exp(x), y), [np.array([0.5, -1.0]), np.array(2.0)])
"""
from __future__ import annotations

import contextlib
import types
from typing import Callable, Iterator, Sequence

import numpy as np

from sporeling.core import PluginHost, SporelingError, dtypes, impl, set_plugin_host

from .autodiff import vjp
from .core.core_set import core_primitives

__all__ = ["check_grads", "GradientCheckError", "core_only_backend"]


@contextlib.contextmanager
def core_only_backend(name: str = "core_only", device_target: str = "CORE_ONLY") -> Iterator:
    """Inside the block, a backend ``name`` (device target ``device_target``) with NumPy's
    kernels for the core set only (:func:`~.core.core_set.core_primitives`) is installed
    beside every other plugin; yields it. Lowering for it decomposes everything else, as
    for a new backend that implements just the core set."""
    from sporeling.runtime import NumpyBackend, get_backend
    from sporeling.runtime.kernels import NUMPY_KERNEL_MEMORY, NUMPY_KERNELS

    core = core_primitives()  # read before this host replaces the current one
    backend_class = type("CoreOnlyBackend", (NumpyBackend,),
                         {"name": name, "device_target": device_target})
    plugin = types.ModuleType(f"{name}_plugin")

    def sporeling_add_backends(backends):
        backends.add(name, backend_class)

    def sporeling_add_kernels(kernels):
        for primitive in core:
            kernels.add_kernel(name, primitive, NUMPY_KERNELS[primitive],
                               memory=NUMPY_KERNEL_MEMORY[primitive])

    for hook in (sporeling_add_backends, sporeling_add_kernels):
        setattr(plugin, hook.__name__, impl(hook))
    host = PluginHost()
    host.add_plugins([(name, f"{name}-testing", "0", plugin)])
    old = set_plugin_host(host)
    try:
        yield get_backend(name)
    finally:
        set_plugin_host(old)


class GradientCheckError(SporelingError, AssertionError):
    """Reverse-mode gradients disagree with finite differences."""


def _is_float(a) -> bool:
    return dtypes.is_floating(np.asarray(a).dtype)


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _vdot(a, b) -> float:
    return float(np.vdot(np.asarray(a, np.float64), np.asarray(b, np.float64)))


def _check_vjp(f, args, rng, eps, rtol, atol, name, order):
    diff = [i for i, a in enumerate(args) if _is_float(a)]
    out, vjp_fn = vjp(f, *args)
    outs = _as_tuple(out)
    cts = [rng.standard_normal(np.shape(o)) for o in outs]
    grads = vjp_fn(tuple(cts) if isinstance(out, (tuple, list)) else cts[0])
    for i in diff:
        if np.shape(grads[i]) != np.shape(args[i]):
            raise GradientCheckError(f"gradient of argument {i} has the wrong shape", op=name,
                                     expected=np.shape(args[i]), got=np.shape(grads[i]),
                                     where=f"order {order}")
    directions = {i: rng.standard_normal(np.shape(args[i])) for i in diff}

    def shifted(sign):
        moved = [np.asarray(a + sign * eps * directions[i]) if i in directions else a
                 for i, a in enumerate(args)]
        return _as_tuple(f(*moved))

    plus, minus = shifted(1.0), shifted(-1.0)
    numeric = sum(_vdot(c, (np.asarray(p) - np.asarray(m)) / (2 * eps))
                  for c, p, m in zip(cts, plus, minus))
    analytic = sum(_vdot(grads[i], directions[i]) for i in diff)
    if not abs(numeric - analytic) <= atol + rtol * max(abs(numeric), abs(analytic)):
        raise GradientCheckError("reverse-mode gradient disagrees with finite differences",
                                 op=name, expected=f"{numeric:.10g} (finite differences)",
                                 got=f"{analytic:.10g} (backward rule)", where=f"order {order}")


def check_grads(f: Callable, args: Sequence, order: int = 2, *, eps: float = 1e-5,
                rtol: float = 1e-5, atol: float = 1e-7, seed: int = 0,
                name: str | None = None) -> None:
    """Check ``f``'s reverse-mode gradients against central differences, up to ``order``.

    Float arguments are converted to float64 and perturbed along random directions; other
    arguments (indices, masks) pass through unchanged. Order 2 checks the gradient of the
    vector-Jacobian product, i.e. that the backward rules are themselves differentiable.
    Raises :class:`GradientCheckError` naming ``name`` (default: ``f.__name__``).
    """
    name = name or getattr(f, "__name__", "f")
    args = [np.asarray(a, np.float64) if _is_float(a) else a for a in args]
    rng = np.random.default_rng(seed)
    _check_vjp(f, args, rng, eps, rtol, atol, name, 1)
    if order >= 2:
        probe = _as_tuple(f(*args))
        cts = [rng.standard_normal(np.shape(o)) for o in probe]
        diff = [i for i, a in enumerate(args) if _is_float(a)]

        def grads_of_f(*xs):
            out, fn = vjp(f, *xs)
            g = fn(tuple(cts) if isinstance(out, (tuple, list)) else cts[0])
            return tuple(g[i] for i in diff)

        _check_vjp(grads_of_f, args, rng, eps, rtol, atol, name, 2)
