"""``Thor``: MindSpore's second-order optimiser THOR (a Kronecker-factored natural gradient),
with its GPU kernel's numerics.

A layer ``y = W a`` records two covariances while it trains: ``A = E[a a^T]`` of its inputs
(forward) and ``G = E[D D^T]`` of the loss gradients at its outputs (backward). THOR replaces
the gradient of ``W`` by ``(G + sqrt(d) I)^-1 grad (A + sqrt(d) I)^-1`` (``d`` the step's
damping; ``G`` first rescaled by ``batch_size^2 / loss_scale^2``, undoing a mean-reduced and
loss-scaled loss), then takes a ``Momentum`` step (weight decay added after preconditioning).
The inverses are recomputed every ``frequency`` steps (steps 0, f, 2f, ...) and reused in
between; the layers record ``A`` and ``G`` on those steps only (``layer.thor`` is set for the
next step).

Per parameter, ``preconditioners[i]`` says how: ``None`` (plain momentum), ``("fc", layer)``
and ``("conv", layer)`` (the weight as an ``(out, -1)`` matrix), ``("embedding", layer)``
(``A`` is the per-row count vector: ``(A / batch_size + sqrt(d))^-1`` scales the rows) or
``("layernorm", None)`` (``g / (g^2 / batch_size + sqrt(d))``, every step). A ``layer``
has a ``thor`` flag and ``kronecker_factors() -> (A, G, a_normalizer, g_normalizer)`` as
NumPy values; a convolution's damping is divided by its normalizers and both inverses are
scaled by ``sqrt(1 / a_normalizer)``, as MindSpore does.

The preconditioning inverts matrices with NumPy: the step runs eagerly only (PyNative); a
Graph-mode trace of it raises. MindSpore's kernel inverts matrices larger than 128 in
128-wide diagonal blocks; the inverses here are exact.
"""
from __future__ import annotations

import numpy as np

from sporeling.core import SporelingError
from sporeling.core.errors import ArgumentError, ShapeError

from ._arrays import to_numpy
from ._learning_rate import as_learning_rate
from .sgd import Momentum

__all__ = ["Thor"]

_KINDS = ("fc", "conv", "embedding", "layernorm")


def _damped_inverse(matrix: np.ndarray, damping: float) -> np.ndarray:
    """``(matrix + damping I)^-1`` (the matrices are symmetric positive semi-definite)."""
    return np.linalg.inv(matrix + damping * np.eye(matrix.shape[0], dtype=matrix.dtype))


class Thor(Momentum):
    """``Thor(params, learning_rate, damping, momentum, preconditioners=None,
    weight_decay=0.0, loss_scale=1.0, batch_size=32, use_nesterov=False, decay_filter=None,
    frequency=100)`` (no ``preconditioners``: every parameter takes a momentum step).

    ``learning_rate`` and ``damping`` are floats or per-step values (a list/array/Tensor,
    step ``i`` uses value ``i``); ``decay_filter(param) -> bool`` picks the parameters
    weight decay applies to (all by default, as MindSpore's THOR)."""

    def __init__(self, params, learning_rate, damping, momentum, preconditioners=None,
                 weight_decay: float = 0.0, loss_scale: float = 1.0, batch_size: int = 32,
                 use_nesterov: bool = False, decay_filter=None, frequency: int = 100):
        params = list(params)
        super().__init__(params, learning_rate, momentum, weight_decay, loss_scale,
                         use_nesterov)
        name = type(self).__name__
        if isinstance(frequency, bool) or not isinstance(frequency, int) or frequency < 2:
            raise ArgumentError("frequency must be an int >= 2", op=name,
                                expected="an int >= 2", got=repr(frequency))
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise ArgumentError("batch_size must be a positive int", op=name,
                                expected="an int >= 1", got=repr(batch_size))
        preconditioners = [None] * len(self._parameters) if preconditioners is None else \
            list(preconditioners)
        if len(preconditioners) != len(self._parameters):
            raise ArgumentError("one preconditioner per parameter", op=name,
                                expected=f"{len(self._parameters)} entries",
                                got=len(preconditioners))
        for i, spec in enumerate(preconditioners):
            if spec is not None and (not isinstance(spec, tuple) or len(spec) != 2
                                     or spec[0] not in _KINDS):
                raise ArgumentError("bad preconditioner", op=name,
                                    expected=f"None or (kind, layer) with kind in {_KINDS}",
                                    got=f"{spec!r} at position {i}")
        self.damping = as_learning_rate(damping, f"{name}.damping")
        values = [self.damping.constant] if self.damping.constant is not None else \
            self.damping.values
        if values is not None and not np.all(np.isfinite(np.asarray(values, np.float64))):
            raise ValueError(f"{name}: damping must be finite, got {damping!r}")
        self.frequency, self.batch_size = frequency, batch_size
        self.preconditioners = tuple(preconditioners)
        if decay_filter is not None:
            self._decays = tuple(self.weight_decay if decay_filter(p) else 0.0
                                 for p in self._parameters)
        else:  # MindSpore's THOR decays every parameter (its filter keeps all names)
            self._decays = (self.weight_decay,) * len(self._parameters)
        self._inverses: dict[int, tuple] = {}  # parameter index -> the reused inverses

    def get_frequency(self) -> int:
        """How many steps one computation of the inverses serves."""
        return self.frequency

    def __call__(self, gradients) -> bool:
        from ..graph.tracing import is_tracing
        if is_tracing():
            raise SporelingError("THOR's step inverts matrices with NumPy", op="Thor",
                                 expected="a step in PyNative mode",
                                 got="a call while a Graph-mode trace runs")
        if len(gradients) != len(self._parameters):
            return super().__call__(gradients)  # its message says what was expected
        step = self.global_step
        refresh = step % self.frequency == 0
        damping = float(self.damping.at(step))
        gradients = tuple(g if g is None or spec is None else
                          self._precondition(i, spec, g, damping, refresh)
                          for i, (g, spec) in enumerate(zip(gradients, self.preconditioners)))
        done = super().__call__(gradients)
        record = self.global_step % self.frequency == 0
        for spec in self.preconditioners:
            if spec is not None and spec[1] is not None:
                spec[1].thor = record  # the layers record A and G for the next refresh
        return done

    # ---- the preconditioned gradients (MindSpore's ThorGpu) -------------------------------

    def _precondition(self, i: int, spec, g, damping: float, refresh: bool):
        kind, layer = spec
        g = to_numpy(g)
        if kind == "layernorm":
            g64 = g.astype(np.float64)
            return (g64 / (g64 * g64 / self.batch_size + np.sqrt(damping))).astype(g.dtype)
        if refresh or i not in self._inverses:
            self._inverses[i] = self._inverses_of(kind, layer, damping)
        a_inv, g_inv = self._inverses[i]
        if kind == "embedding":
            return ((a_inv[:, None] * g.astype(np.float64)) @ g_inv).astype(g.dtype)
        matrix = g.reshape(g.shape[0], -1).astype(np.float64)
        if g_inv.shape[0] != matrix.shape[0] or a_inv.shape[0] != matrix.shape[1]:
            raise ShapeError("the layer's Kronecker factors do not fit its gradient",
                             op="Thor", expected=f"G {matrix.shape[0]}x{matrix.shape[0]}, "
                             f"A {matrix.shape[1]}x{matrix.shape[1]}",
                             got=f"G {g_inv.shape}, A {a_inv.shape} "
                                 f"(a grouped convolution?)")
        return (g_inv @ matrix @ a_inv).reshape(g.shape).astype(g.dtype)

    def _inverses_of(self, kind: str, layer, damping: float) -> tuple:
        a, g, a_norm, g_norm = (np.asarray(to_numpy(v), np.float64)
                                for v in layer.kronecker_factors())
        scale = float(self.batch_size) ** 2 / self.loss_scale ** 2
        damping_a = damping_g = damping
        feature_map = 1.0
        if kind == "conv":
            a_norm, g_norm = float(a_norm.reshape(-1)[0]), float(g_norm.reshape(-1)[0])
            damping_a, damping_g = damping / a_norm, damping / g_norm
            feature_map = np.sqrt(1.0 / a_norm)
        g_inv = _damped_inverse(g * scale, np.sqrt(damping_g)) * feature_map
        if kind == "embedding":
            return 1.0 / (a / self.batch_size + np.sqrt(damping_a)), g_inv
        return _damped_inverse(a, np.sqrt(damping_a)) * feature_map, g_inv
