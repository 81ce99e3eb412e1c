"""Window functions of ``mindspore.ops`` (Spectral Functions, r2.3): constants computed with
NumPy (float32 unless ``dtype``). ``periodic=True`` (the default) gives the window for
spectral analysis: the symmetric window of length ``N + 1`` without its last sample."""
from __future__ import annotations

import numpy as np

from ._util import SporelingError, Tensor, np_dtype

__all__ = ["bartlett_window", "blackman_window", "hamming_window", "hann_window",
           "kaiser_window"]


def _window(op: str, window_length, periodic, dtype, make):
    n = int(window_length)
    if n < 0:
        raise SporelingError("window_length must be >= 0", op=op, expected="an int >= 0",
                             got=window_length)
    if n <= 1:
        values = np.ones(n, np.float64)
    else:
        values = make(n + 1)[:-1] if periodic else make(n)
    return Tensor(values.astype(np_dtype(dtype) or np.float32))


def bartlett_window(window_length, periodic=True, *, dtype=None):
    """The triangular Bartlett window."""
    return _window("ops.bartlett_window", window_length, periodic, dtype, np.bartlett)


def blackman_window(window_length, periodic=True, *, dtype=None):
    """The Blackman window ``0.42 - 0.5 cos(2 pi n / (N-1)) + 0.08 cos(4 pi n / (N-1))``."""
    return _window("ops.blackman_window", window_length, periodic, dtype, np.blackman)


def hann_window(window_length, periodic=True, *, dtype=None):
    """The Hann window ``0.5 - 0.5 cos(2 pi n / (N-1))``."""
    return _window("ops.hann_window", window_length, periodic, dtype, np.hanning)


def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None):
    """The generalised Hamming window ``alpha - beta cos(2 pi n / (N-1))``."""
    def make(n):
        return alpha - beta * np.cos(2 * np.pi * np.arange(n) / (n - 1))
    return _window("ops.hamming_window", window_length, periodic, dtype, make)


def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None):
    """The Kaiser window ``I0(beta sqrt(1 - (2n/(N-1) - 1)^2)) / I0(beta)``."""
    return _window("ops.kaiser_window", window_length, periodic, dtype,
                   lambda n: np.kaiser(n, beta))
