"""``normalize`` (layer norm's core: ``(x - mean) / sqrt(var + eps)`` and the statistics)
over the trailing axes as a generated function: per row one pass for the mean, one writing
``x - mean`` and summing its squares, one scaling -- where NumPy's kernel took 2.6 ms for
the peers Transformer's 512 rows of 128 (a tenth of its step).

Numerics are NumPy's kernel's (``kernels/nn/normalization.py``): the mean rounded to the
dtype before it is subtracted, the biased variance of those differences, ``1 / sqrt(var +
eps)`` in the dtype; the sums accumulate in float64 (NumPy's float32 pairwise sums: within
an ulp or two). Generated: float32 and float64, axes that are the trailing ones (layer
norm; batch norm's ``(0, 2, 3)`` runs oneDNN's, on the provider below).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .tir_text import Generated, Writer, header

__all__ = ["NormSpec", "NORM_WORK", "norm_spec", "norm_unsupported"]


@dataclass(frozen=True)
class NormSpec(Generated):
    """What one generated normalisation is specialised to (the rows are symbolic)."""
    features: int  # the elements of one row: the product of the normalised axes
    dtype: str
    eps: float
    kind: str = "normalize"

    def source(self) -> str:
        f, dt = self.features, self.dtype
        buffers = [("x", f"(rows, {f})", dt), ("y", f"(rows, {f})", dt), ("mean", "(rows,)", dt),
                   ("var", "(rows,)", dt), ("work", str(NORM_WORK), "float64")]
        lines = header(buffers, ("rows",))
        w = Writer()
        with w.block("for n in range(rows):"):
            _sum(w, f, 0, "T.Cast('float64', x[n, k])")
            w(f"mean[n] = T.Cast('{dt}', {_total(0)} / T.float64({f}))")
            with w.block(f"for k in range(T.int64({f})):"):
                w("y[n, k] = x[n, k] - mean[n]")
            _sum(w, f, 1, "T.Cast('float64', y[n, k]) * T.Cast('float64', y[n, k])")
            w(f"var[n] = T.Cast('{dt}', {_total(1)} / T.float64({f}))")
            with w.block(f"for k in range(T.int64({f})):"):
                w(f"y[n, k] = y[n, k] * (T.{dt}(1) / T.sqrt(var[n] + T.{dt}({self.eps!r})))")
        return "\n".join(lines + w.lines) + "\n"


_LANES = 8
NORM_WORK = (2, _LANES)  # the scratch argument's shape
"""Partial sums per row: ``work[s, k % 8]`` (one float64 chain of additions per row ran
at the adder's latency, 4 cycles an element; eight independent ones vectorise)."""


def _sum(w: Writer, features: int, slot: int, term: str) -> None:
    """``work[slot, :]``: the partial sums of ``term`` (a string of ``k``) over the row."""
    full = features // _LANES * _LANES
    with w.block(f"for j in range({_LANES}):"):
        w(f"work[{slot}, j] = T.float64(0)")
    if full:
        with w.block(f"for kb, j in T.grid(T.int64({full // _LANES}), T.int64({_LANES})):"):
            w(f"work[{slot}, j] = work[{slot}, j] + "
              + term.replace("[n, k]", f"[n, kb * T.int64({_LANES}) + j]"))
    if full < features:
        with w.block(f"for k in range(T.int64({full}), T.int64({features})):"):
            w(f"work[{slot}, 0] = work[{slot}, 0] + {term}")


def _total(slot: int) -> str:
    return "(" + " + ".join(f"work[{slot}, {j}]" for j in range(_LANES)) + ")"


def norm_spec(specs, params: dict) -> NormSpec:
    (shape, dtype), axis = specs[0], tuple(params["axis"])
    return NormSpec(math.prod(shape[a] for a in axis), np.dtype(dtype).name,
                    float(params["eps"]))


def norm_unsupported(specs, params: dict) -> str | None:
    """Why no function is generated for such a call (None: one is)."""
    (shape, dtype), axis = specs[0], sorted(params["axis"])
    if np.dtype(dtype) not in (np.float32, np.float64):
        return f"dtype {np.dtype(dtype).name}"
    if not axis or axis != list(range(len(shape) - len(axis), len(shape))):
        return f"axes {tuple(axis)} of {len(shape)} (trailing axes are generated)"
    if 0 in tuple(shape):
        return "an empty input"
    return None
