"""Concept drift on a stream: ``ADWIN``-style adaptive windowing with a whole-stream
false-alarm guarantee, and Gama's ``DDM`` for error streams.

``ADWIN(delta=0.01)`` keeps a window of recent values in ``[0, 1]`` (a model's 0/1 errors,
losses scaled to [0, 1], ...). After each value it compares every split of the window into an
older part (``n0`` values) and a newer one (``n1``) and signals drift when their means differ
by more than

    eps = sqrt((1/n0 + 1/n1) / 2 · ln(2 / delta_t)),   delta_t = delta / (t (t + 1) · splits)

(Hoeffding's inequality for a difference of means of [0, 1] values). The union bound over
the splits and over all steps ``t`` (Σ 1/(t(t+1)) = 1) gives: **on a stream without drift,
the probability of any false alarm, ever, is at most ``delta``** -- stricter than Bifet &
Gavaldà's per-step bound, for slightly later detection. On drift the older part is dropped.
The window is capped at ``max_window`` (oldest values leave) and splits are checked every
``stride`` positions; both only remove checks, so the guarantee holds.

``DDM(warning=2, drift=3, min_samples=30)`` (Gama et al. 2004) tracks the error rate ``p``
and ``s = sqrt(p(1-p)/n)`` of a 0/1 error stream and signals drift when ``p + s`` exceeds
its recorded minimum ``p_min + drift · s_min`` (``warning``: a softer level). It is a
heuristic with no false-alarm bound; use ADWIN where one is needed.
"""
from __future__ import annotations

import numpy as np

from .errors import DriftError

__all__ = ["ADWIN", "DDM"]


class ADWIN:
    """``update(x) -> bool`` (drift now); ``update_many(xs) -> indices of alarms``;
    ``mean`` / ``width`` of the current window; ``drifts``: the step of each alarm."""

    def __init__(self, delta: float = 0.01, max_window: int = 1000, min_size: int = 10,
                 stride: int = 1):
        if not 0 < delta < 1:
            raise DriftError("bad delta", op="ADWIN", expected="0 < delta < 1", got=delta)
        for name, v, low in (("max_window", max_window, 2), ("min_size", min_size, 1),
                             ("stride", stride, 1)):
            if int(v) != v or v < low:
                raise DriftError(f"bad {name}", op="ADWIN", expected=f"an integer >= {low}",
                                 got=v)
        self.delta, self.max_window = float(delta), int(max_window)
        self.min_size, self.stride = int(min_size), int(stride)
        self._c = np.zeros(1)          # prefix sums of the window: _c[i] = sum of the first i
        self.t = 0
        self.drifts: list[int] = []

    @property
    def width(self) -> int:
        return len(self._c) - 1

    @property
    def mean(self) -> float:
        return float(self._c[-1] / self.width) if self.width else float("nan")

    def update(self, x: float) -> bool:
        x = float(x)
        if not 0.0 <= x <= 1.0:
            raise DriftError("value outside [0, 1]", op="ADWIN.update",
                             expected="stream values in [0, 1] (scale them)", got=x)
        self.t += 1
        self._c = np.append(self._c, self._c[-1] + x)
        if self.width > self.max_window:
            self._c = self._c[1:] - self._c[1]
        n, c = self.width, self._c
        splits = np.arange(self.min_size, n - self.min_size + 1, self.stride)
        if len(splits) == 0:
            return False
        n0, n1 = splits.astype(float), n - splits.astype(float)
        gap = np.abs(c[splits] / n0 - (c[n] - c[splits]) / n1)
        delta_t = self.delta / (self.t * (self.t + 1.0) * len(splits))
        eps = np.sqrt((1 / n0 + 1 / n1) / 2 * np.log(2 / delta_t))
        over = np.flatnonzero(gap > eps)
        if len(over) == 0:
            return False
        cut = splits[over[-1]]                         # keep what follows the latest cut
        self._c = self._c[cut:] - self._c[cut]
        self.drifts.append(self.t)
        return True

    def update_many(self, xs) -> list[int]:
        """Feed a sequence; returns the positions (in ``xs``) that raised an alarm."""
        return [i for i, x in enumerate(np.asarray(xs, float).ravel()) if self.update(x)]


class DDM:
    """``update(error) -> "drift" | "warning" | None`` for a 0/1 error stream."""

    def __init__(self, warning: float = 2.0, drift: float = 3.0, min_samples: int = 30):
        if not 0 < warning < drift:
            raise DriftError("bad levels", op="DDM", expected="0 < warning < drift",
                             got=(warning, drift))
        if int(min_samples) != min_samples or min_samples < 1:
            raise DriftError("bad min_samples", op="DDM", expected="an integer >= 1",
                             got=min_samples)
        self.warning_level, self.drift_level = float(warning), float(drift)
        self.min_samples = int(min_samples)
        self.t = 0
        self.drifts: list[int] = []
        self._reset()

    def _reset(self):
        self.n, self.errors = 0, 0.0
        self.p_min, self.s_min = float("inf"), float("inf")

    def update(self, error) -> str | None:
        e = float(error)
        if e not in (0.0, 1.0):
            raise DriftError("not a 0/1 error", op="DDM.update", expected="0 or 1", got=error)
        self.t += 1
        self.n += 1
        self.errors += e
        p = self.errors / self.n
        s = np.sqrt(p * (1 - p) / self.n)
        if self.n < self.min_samples:
            return None
        if p + s < self.p_min + self.s_min:
            self.p_min, self.s_min = p, s
        if p + s > self.p_min + self.drift_level * self.s_min:
            self.drifts.append(self.t)
            self._reset()
            return "drift"
        if p + s > self.p_min + self.warning_level * self.s_min:
            return "warning"
        return None
