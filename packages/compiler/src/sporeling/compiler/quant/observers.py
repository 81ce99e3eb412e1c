"""Activation observers (what range a tensor takes over calibration batches) and the int8
parameters they give, plus per-channel symmetric weight quantisation.

An observer sees arrays through :meth:`Observer.observe` and returns ``(scale, zero_point)``
from :meth:`Observer.qparams` for asymmetric int8 (``[-128, 127]``; the range always holds
0, so zero -- ReLU's output, padding -- is exact).

* :class:`MinMaxObserver`: the smallest and largest value seen.
* :class:`PercentileObserver`: clips outliers at a percentile of the values seen (kept in a
  bounded, seeded reservoir sample), for activations with long tails.
* :class:`MSEObserver`: of candidate clipping ranges (shrinking the min-max range), the one
  whose quantise-dequantise error on the sample is smallest.

    >>> obs = MinMaxObserver()
    >>> obs.observe(np.float32([0.0, 2.55]))
    >>> scale, zero_point = obs.qparams()
    >>> round(scale, 6), zero_point
    (0.01, -128)
"""
from __future__ import annotations

import numpy as np

from sporeling.core import SporelingError

__all__ = ["Observer", "MinMaxObserver", "PercentileObserver", "MSEObserver", "OBSERVERS",
           "make_observer", "qparams_from_range", "quantize_weight_per_channel",
           "QMIN", "QMAX"]

QMIN, QMAX = -128, 127


def qparams_from_range(lo: float, hi: float) -> tuple[float, int]:
    """Asymmetric int8 ``(scale, zero_point)`` covering ``[lo, hi]`` (widened to hold 0)."""
    lo, hi = min(float(lo), 0.0), max(float(hi), 0.0)
    if hi == lo:  # a constant zero: any scale represents it
        return 1.0, 0
    scale = (hi - lo) / (QMAX - QMIN)
    zero_point = int(np.clip(round(QMIN - lo / scale), QMIN, QMAX))
    return float(np.float32(scale)), zero_point


class Observer:
    """Base class: collects the range of the values it observes."""

    def __init__(self):
        self.batches = 0
        self.lo, self.hi = np.inf, -np.inf

    def observe(self, x) -> None:
        x = np.asarray(x)
        if x.size:
            self.lo, self.hi = min(self.lo, float(x.min())), max(self.hi, float(x.max()))
        self.batches += 1

    def range(self) -> tuple[float, float]:
        return self.lo, self.hi

    def qparams(self) -> tuple[float, int]:
        if not self.batches or not np.isfinite([self.lo, self.hi]).all():
            raise SporelingError("an observer has seen no finite values", op="calibrate",
                                 expected="at least one calibration batch",
                                 got=f"{self.batches} batches, range [{self.lo}, {self.hi}]")
        return qparams_from_range(*self.range())


class MinMaxObserver(Observer):
    """The full range seen: no value is clipped."""


class _Sampling(Observer):
    """Keeps a uniform sample of at most ``max_samples`` values (reservoir by batch)."""

    def __init__(self, max_samples: int = 100_000, seed: int = 0):
        super().__init__()
        self.max_samples = int(max_samples)
        self._rng = np.random.default_rng(seed)
        self._sample = np.empty(0, np.float32)
        self._seen = 0

    def observe(self, x) -> None:
        super().observe(x)
        flat = np.asarray(x, np.float32).ravel()
        self._seen += flat.size
        pool = np.concatenate([self._sample, flat])
        if pool.size > self.max_samples:
            # each value seen so far is kept with the same probability
            pool = self._rng.choice(pool, self.max_samples, replace=False)
        self._sample = pool


class PercentileObserver(_Sampling):
    """Range from the ``percentile``-th (and ``100 - percentile``-th) value of the sample."""

    def __init__(self, percentile: float = 99.99, **kw):
        super().__init__(**kw)
        if not 50.0 < percentile <= 100.0:
            raise SporelingError("the percentile is in (50, 100]", op="PercentileObserver",
                                 got=percentile)
        self.percentile = float(percentile)

    def range(self) -> tuple[float, float]:
        lo, hi = np.percentile(self._sample, [100.0 - self.percentile, self.percentile])
        return float(lo), float(hi)


class MSEObserver(_Sampling):
    """Range (a fraction of the min-max one) minimising the quantisation error's MSE."""

    def __init__(self, candidates: int = 60, **kw):
        super().__init__(**kw)
        self.candidates = int(candidates)

    def range(self) -> tuple[float, float]:
        best, best_err = (self.lo, self.hi), np.inf
        for frac in np.geomspace(1.0, 0.05, self.candidates):
            lo, hi = self.lo * frac, self.hi * frac
            scale, zp = qparams_from_range(lo, hi)
            q = np.clip(np.rint(self._sample / scale) + zp, QMIN, QMAX)
            err = float(np.mean(((q - zp) * scale - self._sample) ** 2))
            if err < best_err:
                best, best_err = (lo, hi), err
        return best


OBSERVERS = {"minmax": MinMaxObserver, "percentile": PercentileObserver, "mse": MSEObserver}


def make_observer(kind) -> Observer:
    """An observer from a name in :data:`OBSERVERS`, a class, or a factory."""
    if isinstance(kind, str):
        if kind not in OBSERVERS:
            raise SporelingError("unknown observer", op="calibrate",
                                 expected=" or ".join(map(repr, OBSERVERS)), got=repr(kind))
        return OBSERVERS[kind]()
    return kind()


def quantize_weight_per_channel(w: np.ndarray, axis: int = 0, *,
                                reduce_range: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Symmetric int8 per channel along ``axis``: ``(q, scale)`` with
    ``w ≈ q * scale`` (scale broadcast along ``axis``), ``q`` in ``[-127, 127]``
    (``[-63, 63]`` with ``reduce_range``: x86 int8 kernels without VNNI, such as
    onnxruntime's on AVX2, add pairs of uint8 x int8 products in int16 and saturate on
    full-range weights).

        >>> q, s = quantize_weight_per_channel(np.float32([[1.0, -0.5], [0.0, 0.0]]))
        >>> q.tolist(), s.tolist()
        ([[127, -64], [0, 0]], [0.007874015718698502, 1.0])
    """
    w = np.asarray(w, np.float32)
    axis = axis % w.ndim
    others = tuple(i for i in range(w.ndim) if i != axis)
    amax = np.max(np.abs(w), axis=others) if others else np.abs(w)
    qmax = 63 if reduce_range else 127
    scale = np.where(amax > 0, amax / qmax, 1.0).astype(np.float32)
    shape = [1] * w.ndim
    shape[axis] = -1
    q = np.clip(np.rint(w / scale.reshape(shape)), -qmax, qmax).astype(np.int8)
    return q, scale
