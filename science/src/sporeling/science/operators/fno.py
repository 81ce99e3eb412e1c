"""The Fourier neural operator in one dimension (Li et al., *Fourier Neural Operator for
Parametric Partial Differential Equations*, ICLR 2021).

A Fourier layer maps ``v`` (batch, channels, n) to ``act(K v + W v)``: ``K`` multiplies the
lowest ``modes`` Fourier modes of every channel by learned complex matrices (the rest are
dropped), ``W`` is a pointwise linear map. The transforms are the :mod:`.fft` primitives,
so the layer differentiates, and runs in PyNative and Graph mode; complex weights are two
real Parameters (real and imaginary parts). The network does not depend on ``n``: a model
trained on one grid evaluates on another.
"""
from __future__ import annotations

import numpy as np

from sporeling.expression import Parameter, nn, ops
from sporeling.core.errors import ShapeError

from .fft import irfft, rfft

__all__ = ["SpectralConv1d", "FourierLayer1d", "FNO1d"]


class SpectralConv1d(nn.Cell):
    """``irfft(R * rfft(v)[:modes])`` with ``R`` a learned complex (in, out) matrix per mode,
    on ``v`` of shape (batch, in_channels, n).

    The complex product of every mode is one real batched matmul over the modes,
    ``[re, im] @ [[R_re, R_im], [-R_im, R_re]]`` (four einsums cost 5x more in NumPy)."""

    def __init__(self, in_channels: int, out_channels: int, modes: int, seed: int = 0):
        super().__init__()
        self.in_channels, self.out_channels, self.modes = in_channels, out_channels, modes
        rng = np.random.default_rng(seed)
        scale = 1.0 / (in_channels * out_channels)  # the reference implementation's init
        shape = (modes, in_channels, out_channels)
        self.weight_re = Parameter((scale * rng.random(shape)).astype(np.float32),
                                   name="weight_re")
        self.weight_im = Parameter((scale * rng.random(shape)).astype(np.float32),
                                   name="weight_im")

    def construct(self, x):
        n = x.shape[-1]
        if x.ndim != 3 or x.shape[1] != self.in_channels or n // 2 + 1 < self.modes:
            raise ShapeError("bad input for a spectral convolution", op="SpectralConv1d",
                             expected=f"(batch, {self.in_channels}, n) with n//2 + 1 >= "
                                      f"{self.modes} modes", got=f"shape {tuple(x.shape)}")
        re, im = rfft(x)
        spec = ops.concat([re[..., :self.modes], im[..., :self.modes]], axis=1)
        spec = ops.transpose(spec, (2, 0, 1))                      # (modes, batch, 2 in)
        w = ops.concat([ops.concat([self.weight_re, self.weight_im], axis=2),
                        ops.concat([-self.weight_im, self.weight_re], axis=2)], axis=1)
        out = ops.transpose(ops.matmul(spec, w), (1, 2, 0))        # (batch, 2 out, modes)
        c = self.out_channels
        return irfft(out[:, :c], out[:, c:], n)


class FourierLayer1d(nn.Cell):
    """``gelu(SpectralConv1d(v) + W v + b)``, or without the activation for the last one."""

    def __init__(self, width: int, modes: int, activation: bool = True, seed: int = 0):
        super().__init__()
        self.spectral = SpectralConv1d(width, width, modes, seed=seed)
        bound = 1.0 / np.sqrt(width)
        rng = np.random.default_rng(seed + 1)
        self.w = Parameter(rng.uniform(-bound, bound, (width, width)).astype(np.float32),
                           name="w")
        self.b = Parameter(rng.uniform(-bound, bound, (width, 1)).astype(np.float32),
                           name="b")
        self.activation = activation

    def construct(self, x):
        y = self.spectral(x) + ops.matmul(self.w, x) + self.b
        return ops.gelu(y) if self.activation else y


class FNO1d(nn.Cell):
    """Maps a function sampled on a uniform grid, (batch, n), to another, (batch, n).

    Lift ``(u(x), x)`` to ``width`` channels, apply ``layers`` Fourier layers keeping
    ``modes`` modes each, project back with a two-layer network (as in the paper)."""

    def __init__(self, modes: int = 16, width: int = 32, layers: int = 4,
                 hidden: int = 64, seed: int = 0):
        super().__init__()
        self.lift = nn.Dense(2, width)
        self.layers = nn.CellList([FourierLayer1d(width, modes, activation=i < layers - 1,
                                                  seed=seed + 2 * i)
                                   for i in range(layers)])
        self.project = nn.SequentialCell([nn.Dense(width, hidden), nn.GELU(approximate=False),
                                          nn.Dense(hidden, 1)])

    def construct(self, u):
        if u.ndim != 2:
            raise ShapeError("FNO1d takes a batch of functions on a grid", op="FNO1d",
                             expected="shape (batch, n)", got=f"shape {tuple(u.shape)}")
        batch, n = u.shape
        grid = ops.broadcast_to(np.linspace(0, 1, n, endpoint=False, dtype=np.float32),
                                (batch, n))
        v = self.lift(ops.stack([u, grid], axis=-1))          # (batch, n, width)
        v = ops.transpose(v, (0, 2, 1))                       # (batch, width, n)
        for layer in self.layers:
            v = layer(v)
        out = self.project(ops.transpose(v, (0, 2, 1)))       # (batch, n, 1)
        return ops.reshape(out, (batch, n))
